'use client';

import { useEffect, useState } from 'react';
import { timeInUtc, timeInZone } from '@/lib/format/time-in-zone';
import { DASH } from './format';

/**
 * A time in the reader's own time zone, with the zone named and UTC on hover. The server knows no
 * browser's zone, so it renders UTC and the browser swaps in its own after hydration; without
 * JavaScript the page still reads correctly, in UTC.
 */
export function LocalTime({ at, seconds = false }: { at: Date | string | null | undefined; seconds?: boolean }) {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  if (!at) return <>{DASH}</>;
  const iso = new Date(at).toISOString();
  const utc = timeInUtc(iso, { seconds });
  return (
    <time dateTime={iso} title={zone ? `${utc} (shown in ${zone})` : utc} className="whitespace-nowrap tabular-nums">
      {zone ? timeInZone(iso, zone, { seconds }) : utc}
    </time>
  );
}
