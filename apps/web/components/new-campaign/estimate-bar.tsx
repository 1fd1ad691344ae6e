'use client';

import { costText, timeText, type Estimate } from '../launch-estimate';

/** The number of attempts, cost and time of what would launch, beside the launch button. */
export function EstimateBar({
  estimate,
  invalid,
  ready,
  pending,
  trials,
  submitting,
  disabled,
}: {
  estimate: Estimate | null;
  invalid: boolean;
  ready: boolean;
  pending: boolean;
  trials: number;
  submitting: boolean;
  disabled: boolean;
}) {
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4"
      aria-live="polite"
      aria-busy={pending}
      data-testid="estimate"
    >
      <div className="text-sm">
        {estimate ? (
          <>
            <strong className="tabular-nums">{estimate.attempts}</strong> attempts = {estimate.targets} target(s) ×{' '}
            {estimate.fixtures} fixture(s) × {trials} trial(s){' '}
            {`· estimated cost ${costText(estimate)} · estimated time `}
            <span data-testid="estimate-time">{timeText(estimate)}</span>
            {estimate.costNote ? <span className="block text-xs text-slate-500">{estimate.costNote}</span> : null}
          </>
        ) : invalid && ready ? (
          <span className="text-rose-700">
            Correct the fields marked above to see the number of attempts and the cost estimate.
          </span>
        ) : (
          <span className="text-slate-600">
            Choose at least one model and one output mode to see the number of attempts and the cost estimate.
          </span>
        )}
      </div>
      <button
        type="submit"
        disabled={disabled}
        className={
          'rounded bg-indigo-600 px-4 py-2 text-sm font-medium ' + 'text-white hover:bg-indigo-700 disabled:opacity-50'
        }
      >
        {submitting ? 'Launching…' : 'Launch campaign'}
      </button>
    </div>
  );
}
