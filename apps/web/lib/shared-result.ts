/**
 * One result shared by every caller for `ttlMs` after it settles, and by every caller while it runs: a
 * hundred callers in a second cause one run, not a hundred. A failed run is shared the same way (a
 * health check that failed is an answer too), and the next caller after `ttlMs` starts a fresh one.
 */
export function sharedResult<T>(run: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let promise: Promise<T> | null = null;
  let settledAt: number | null = null;
  return () => {
    if (promise && (settledAt === null || now() - settledAt < ttlMs)) return promise;
    settledAt = null;
    const started: Promise<T> = run().finally(() => {
      if (promise === started) settledAt = now();
    });
    promise = started;
    return started;
  };
}
