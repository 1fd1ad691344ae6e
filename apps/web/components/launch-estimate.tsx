'use client';

import { ConfirmPanel } from './confirm-panel';
import { aboutDuration } from './format';

/** What POST /api/campaigns/estimate answers: the form shows it before launch, and again to confirm. */
export interface Estimate {
  attempts: number;
  fixtures: number;
  targets: number;
  costEstimateUsd: number | null;
  costNote?: string;
  /** See estimateCampaignTime in core: null ms when nothing to go by or no worker. */
  time?: { ms: number | null; unknownTargets: number; concurrency: number };
}

export function costText(e: Estimate): string {
  return e.costEstimateUsd === null
    ? '— (unknown)'
    : e.costEstimateUsd === 0
      ? 'none (no paid calls)'
      : `$${e.costEstimateUsd.toFixed(4)}`;
}

export function timeText(e: Estimate): string {
  const t = e.time;
  if (!t) return '— (unknown)';
  if (t.concurrency === 0) return '— (no worker is running: nothing starts until one does)';
  if (t.ms === null) return '— (none of these models has finished an attempt here yet)';
  const partial = t.unknownTargets > 0 ? ` (${t.unknownTargets} target(s) have no finished attempt to go by)` : '';
  return (
    `${t.unknownTargets > 0 ? 'at least ' : ''}${aboutDuration(t.ms / 1000)} ` +
    `at ${t.concurrency} attempt(s) at once${partial}`
  );
}

/** The size, cost and time of a campaign, asked before it is launched. */
export function LaunchConfirmation({
  estimate,
  trials,
  name,
  busy,
  onConfirm,
  onBack,
}: {
  estimate: Estimate;
  trials: number;
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) {
  return (
    <ConfirmPanel
      title={`Launch “${name}”?`}
      confirmLabel={busy ? 'Launching…' : `Launch ${estimate.attempts} attempt${estimate.attempts === 1 ? '' : 's'}`}
      backLabel="Back to the form"
      onConfirm={onConfirm}
      onBack={onBack}
      busy={busy}
      testId="launch-confirmation"
    >
      <p>
        <strong className="tabular-nums">{estimate.attempts}</strong> attempts = {estimate.targets} target(s) ×{' '}
        {estimate.fixtures} fixture(s) × {trials} trial(s).
      </p>
      <p>
        Estimated cost: <span data-testid="confirm-cost">{costText(estimate)}</span>. Estimated time:{' '}
        <span data-testid="confirm-time">{timeText(estimate)}</span>.
      </p>
    </ConfirmPanel>
  );
}
