/**
 * A moment as a reader in `timeZone` reads it: `2026-11-27 21:10 GMT+1`. The zone's short name is
 * always shown, so a time copied into a chat or a ticket still says which clock it was read on; the
 * date stays year-month-day in every locale so that times sort and compare by eye.
 */
export function timeInZone(
  at: Date | string,
  timeZone: string,
  opts: { seconds?: boolean; locale?: string } = {},
): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    ...(opts.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const clock = `${part('hour')}:${part('minute')}${opts.seconds ? `:${part('second')}` : ''}`;
  return `${part('year')}-${part('month')}-${part('day')} ${clock} ${zoneName(at, timeZone, opts.locale)}`;
}

/** The zone's short name at that moment in the reader's locale (`CET`, `EST`, `GMT+1`); UTC stays `UTC`. */
function zoneName(at: Date | string, timeZone: string, locale: string | undefined): string {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 'UTC';
  const named = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(new Date(at));
  return named.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/** The same moment in UTC, for the hover text and for the page as the server renders it. */
export function timeInUtc(at: Date | string, opts: { seconds?: boolean } = {}): string {
  return `${new Date(at)
    .toISOString()
    .replace('T', ' ')
    .slice(0, opts.seconds ? 19 : 16)} UTC`;
}
