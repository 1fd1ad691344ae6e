'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * An agent attempt that is queued or starting has no trajectory yet: this asks every 1.5 s whether
 * its first step is written, and shows the viewer (a refresh of the page) as soon as it is.
 */
export function TrajectoryWaiting({ attemptId }: { attemptId: string }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(async () => {
      const res = await fetch(`/api/attempts/${encodeURIComponent(attemptId)}/trajectory/steps?after=-1`, {
        cache: 'no-store',
      }).catch(() => null);
      if (res?.ok) {
        clearInterval(timer);
        router.refresh();
      }
    }, 1_500);
    return () => clearInterval(timer);
  }, [attemptId, router]);
  return (
    <p
      className="flex items-center gap-2 rounded border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
      data-testid="trajectory-waiting"
    >
      <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-sky-500" aria-hidden /> This agent attempt has
      not recorded a step yet; its trajectory appears here as soon as it does.
    </p>
  );
}
