'use client';

import { useState, type ReactNode } from 'react';

/**
 * A body shown as its preview (head and tail) with a button that loads the whole text of that one
 * part of that one step; nothing else of the trajectory is fetched.
 */
export function ShowAll({
  initial,
  clippedBytes,
  fetchPart,
  render,
  what,
}: {
  initial: string;
  clippedBytes: number | undefined;
  fetchPart: () => Promise<string>;
  /** `complete`: the text is whole (never clipped, or loaded in full), so it may be copied. */
  render: (text: string, complete: boolean) => ReactNode;
  what: string;
}) {
  const [full, setFull] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  return (
    <div className="space-y-1">
      {render(full ?? initial, full !== null || !clippedBytes)}
      {clippedBytes && full === null ? (
        <button
          type="button"
          className={
            'rounded border border-slate-300 bg-white px-2 py-0.5 ' +
            'text-xs text-slate-700 hover:bg-slate-50 disabled:opacity-50'
          }
          disabled={state === 'loading'}
          onClick={async () => {
            setState('loading');
            try {
              setFull(await fetchPart());
              setState('idle');
            } catch {
              setState('error');
            }
          }}
        >
          {state === 'loading'
            ? 'Loading…'
            : `Show all of the ${what} (${clippedBytes.toLocaleString('en-US')} more bytes)`}
        </button>
      ) : null}
      {state === 'error' ? <p className="text-xs text-rose-700">Could not load the {what}.</p> : null}
    </div>
  );
}
