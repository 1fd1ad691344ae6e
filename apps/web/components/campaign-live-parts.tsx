'use client';

import { ATTEMPT_STATUSES } from '@gitbench/core';
import { ConfirmPanel } from './confirm-panel';
import { aboutDuration } from './format';
import type { Progress } from './use-campaign-progress';

// Core's order of the statuses: pending, the quality outcomes, then each reason an attempt gave no evidence.
const ORDER = ATTEMPT_STATUSES;
const LABEL: Record<string, string> = {
  QUEUED: 'queued',
  RUNNING: 'running',
  VALID_PASS: 'passed',
  VALID_FAIL: 'failed',
  INFRA_FAILURE: 'infra failure',
  UNSCORED: 'unscored',
  HASH_MISMATCH: 'hash mismatch',
  INVALID_INPUT: 'invalid input',
  SAFETY_BLOCKED: 'safety blocked',
  CANCELLED: 'cancelled',
};

export function ProgressSummary({
  progress,
  active,
  etaSeconds,
}: {
  progress: Progress;
  active: boolean;
  etaSeconds: number | null;
}) {
  const cancelled = progress.byStatus.CANCELLED ?? 0;
  return (
    <div className="text-sm">
      <span className="font-medium" data-testid="campaign-status">
        {progress.status.toLowerCase()}
      </span>{' '}
      ·{' '}
      <span className="tabular-nums" data-testid="campaign-done">
        {progress.done}/{progress.total}
      </span>{' '}
      attempts finished
      {cancelled > 0 ? <>, {cancelled} of them cancelled</> : null}
      {active ? <> · ETA {aboutDuration(etaSeconds)}</> : null}
    </div>
  );
}

/** Class names of the panel's two action buttons, by tone: the same button, in rose or amber. */
const BUTTON_TONE = {
  rose: 'border-rose-300 text-rose-700 hover:bg-rose-50',
  amber: 'border-amber-300 text-amber-800 hover:bg-amber-50',
} as const;

function ActionButton({
  tone,
  disabled,
  onClick,
  children,
}: {
  tone: keyof typeof BUTTON_TONE;
  disabled: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className={`rounded border ${BUTTON_TONE[tone]} bg-white px-3 py-1.5 text-sm font-medium disabled:opacity-50`}
    >
      {children}
    </button>
  );
}

export function CancelButton({ busy, disabled, onClick }: { busy: boolean; disabled: boolean; onClick: () => void }) {
  return (
    <ActionButton tone="rose" disabled={disabled} onClick={onClick}>
      {busy ? 'Cancelling…' : 'Cancel campaign'}
    </ActionButton>
  );
}

export function RetryButton({
  status,
  infra,
  busy,
  disabled,
  onClick,
}: {
  status: string;
  infra: number;
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  const idle = status === 'FAILED' ? 'Retry planning' : `Retry ${infra} transient failure${infra === 1 ? '' : 's'}`;
  return (
    <ActionButton tone="amber" disabled={disabled} onClick={onClick}>
      {busy ? 'Re-queuing…' : idle}
    </ActionButton>
  );
}

export function ProgressBar({ progress }: { progress: Progress }) {
  const pctDone = progress.total > 0 ? (progress.done / progress.total) * 100 : 0;
  return (
    <div
      className="h-2 w-full overflow-hidden rounded bg-slate-200"
      role="progressbar"
      aria-label="Attempts finished"
      aria-valuemin={0}
      aria-valuemax={progress.total}
      aria-valuenow={progress.done}
    >
      <div className="h-2 bg-indigo-500 transition-all" style={{ width: `${pctDone}%` }} />
    </div>
  );
}

export function CancelConfirmation({
  progress,
  onConfirm,
  onBack,
}: {
  progress: Progress;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const left = progress.total - progress.done;
  return (
    <ConfirmPanel
      title="Cancel this campaign?"
      confirmLabel={`Cancel ${left} attempt${left === 1 ? '' : 's'}`}
      backLabel="Keep running"
      onConfirm={onConfirm}
      onBack={onBack}
      tone="rose"
      testId="cancel-confirmation"
    >
      <p>
        {progress.byStatus.QUEUED ?? 0} queued attempt(s) will not start and {progress.byStatus.RUNNING ?? 0} running
        will stop at their next heartbeat; the {progress.done} of {progress.total} finished keep their results. A
        cancelled campaign stays incomplete: it is left out of default rankings.
      </p>
    </ConfirmPanel>
  );
}

export function StatusCounts({ progress, active }: { progress: Progress; active: boolean }) {
  return (
    <ul
      className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600"
      aria-label="Attempts by status"
      data-testid="attempts-by-status"
    >
      {ORDER.filter((s) => (progress.byStatus[s] ?? 0) > 0).map((s) => (
        <li key={s}>
          <span className="tabular-nums font-medium text-slate-800">{progress.byStatus[s]}</span>{' '}
          {!active && s === 'RUNNING' ? 'still stopping' : LABEL[s]}
        </li>
      ))}
    </ul>
  );
}

export function RetryHint({ infra }: { infra: number }) {
  return (
    <p className="text-sm text-amber-800" data-testid="retry-hint">
      Every attempt has run, but {infra} ended in an infrastructure failure (transport, provider retries exhausted,
      sandbox). They are excluded from the figures and keep the campaign incomplete; once the cause is fixed, retry
      them: each runs again as a new try and its failed try stays in its history.
    </p>
  );
}
