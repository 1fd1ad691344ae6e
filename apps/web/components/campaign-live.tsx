'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { ConfirmPanel } from './confirm-panel';
import { aboutDuration } from './format';

interface Progress {
  status: string;
  total: number;
  done: number;
  byStatus: Record<string, number>;
}

const ACTIVE = ['PLANNING', 'QUEUED', 'RUNNING'];
const ORDER = [
  'QUEUED',
  'RUNNING',
  'VALID_PASS',
  'VALID_FAIL',
  'INFRA_FAILURE',
  'UNSCORED',
  'HASH_MISMATCH',
  'INVALID_INPUT',
  'SAFETY_BLOCKED',
  'CANCELLED',
];
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

/**
 * Live progress: polls the campaign API every 2 s while the campaign is active (and, once cancelled, until
 * its running attempts have stopped), and refreshes the
 * server-rendered page when it reaches a final state so the tables show the finished numbers.
 */
export function CampaignLive({
  campaignId,
  initial,
  initialEtaSeconds,
  legacy,
}: {
  campaignId: string;
  initial: Progress;
  initialEtaSeconds: number | null;
  legacy: boolean;
}) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [etaSeconds, setEtaSeconds] = useState(initialEtaSeconds);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'cancel' | 'retry' | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const lastStatus = useRef(initial.status);
  const active = ACTIVE.includes(progress.status);
  // A cancelled campaign's running attempts stop at their next heartbeat, not at once: keep reading
  // until none is left, so the page shows what really runs instead of the counts at the moment of cancel.
  const unsettled = (progress.byStatus.RUNNING ?? 0) + (progress.byStatus.QUEUED ?? 0);
  const polling = active || unsettled > 0;

  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    const tick = async () => {
      try {
        const res = await fetch(`/api/campaigns/${encodeURIComponent(campaignId)}`, { cache: 'no-store' });
        if (!res.ok) throw new Error(`the server answered ${res.status}`);
        const body = (await res.json()) as { progress: Progress; etaSeconds: number | null };
        if (stopped) return;
        setProgress(body.progress);
        setEtaSeconds(body.etaSeconds ?? null);
        setError(null);
        if (body.progress.status !== lastStatus.current) {
          lastStatus.current = body.progress.status;
          router.refresh();
        }
      } catch (e) {
        if (!stopped) setError(`Live progress paused: ${(e as Error).message}. Retrying in 2 s.`);
      }
    };
    const id = setInterval(tick, 2000);
    void tick();
    return () => {
      stopped = true;
      clearInterval(id);
    };
  }, [polling, campaignId, router]);

  async function act(kind: 'cancel' | 'retry') {
    setBusy(kind);
    setConfirmingCancel(false);
    setMessage(null);
    try {
      const res = await fetch(`/api/campaigns/${encodeURIComponent(campaignId)}/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) throw new Error(typeof body.error === 'string' ? body.error : `the server answered ${res.status}`);
      setMessage(
        kind === 'cancel'
          ? `Cancelled: no new attempt will ` +
              `start${Number(body.stoppedQueued ?? 0) > 0 ? ` (${String(body.stoppedQueued)} queued stopped)` : ''}; ` +
              `running ones stop at their next heartbeat.`
          : (body.replanned ? 'Planning sent again. ' : '') +
              `Re-queued ${String(body.requeued ?? body.retried ?? 'the')} ` +
              `infrastructure-failed attempt(s) as new tries.`,
      );
      const r = await fetch(`/api/campaigns/${encodeURIComponent(campaignId)}`, { cache: 'no-store' });
      if (r.ok) {
        const b = (await r.json()) as { progress: Progress; etaSeconds: number | null };
        setProgress(b.progress);
        setEtaSeconds(b.etaSeconds ?? null);
        lastStatus.current = b.progress.status;
      }
      router.refresh();
    } catch (e) {
      setMessage(`Could not ${kind === 'cancel' ? 'cancel' : 'retry'}: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  }

  const pctDone = progress.total > 0 ? (progress.done / progress.total) * 100 : 0;
  const infra = progress.byStatus.INFRA_FAILURE ?? 0;
  const cancelled = progress.byStatus.CANCELLED ?? 0;
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="campaign-progress">
      <div className="flex flex-wrap items-center justify-between gap-3">
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
        <div className="flex gap-2">
          {active ? (
            <button
              type="button"
              onClick={() => setConfirmingCancel(true)}
              disabled={busy !== null || confirmingCancel}
              className={
                'rounded border border-rose-300 bg-white px-3 py-1.5 text-sm ' +
                'font-medium text-rose-700 hover:bg-rose-50 disabled:opacity-50'
              }
            >
              {busy === 'cancel' ? 'Cancelling…' : 'Cancel campaign'}
            </button>
          ) : null}
          {!legacy && (infra > 0 || progress.status === 'FAILED') && progress.status !== 'CANCELLED' ? (
            <button
              type="button"
              onClick={() => act('retry')}
              disabled={busy !== null}
              className={
                'rounded border border-amber-300 bg-white px-3 py-1.5 text-sm ' +
                'font-medium text-amber-800 hover:bg-amber-50 disabled:opacity-50'
              }
            >
              {busy === 'retry'
                ? 'Re-queuing…'
                : progress.status === 'FAILED'
                  ? 'Retry planning'
                  : `Retry ${infra} transient failure${infra === 1 ? '' : 's'}`}
            </button>
          ) : null}
        </div>
      </div>
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
      {confirmingCancel && active ? (
        <ConfirmPanel
          title="Cancel this campaign?"
          confirmLabel={
            `Cancel ${progress.total - progress.done} ` + `attempt${progress.total - progress.done === 1 ? '' : 's'}`
          }
          backLabel="Keep running"
          onConfirm={() => act('cancel')}
          onBack={() => setConfirmingCancel(false)}
          tone="rose"
          testId="cancel-confirmation"
        >
          <p>
            {progress.byStatus.QUEUED ?? 0} queued attempt(s) will not start and {progress.byStatus.RUNNING ?? 0}{' '}
            running will stop at their next heartbeat; the {progress.done} of {progress.total} finished keep their
            results. A cancelled campaign stays incomplete: it is left out of default rankings.
          </p>
        </ConfirmPanel>
      ) : null}
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
      {!active && !legacy && infra > 0 && progress.status !== 'CANCELLED' ? (
        <p className="text-sm text-amber-800" data-testid="retry-hint">
          Every attempt has run, but {infra} ended in an infrastructure failure (transport, provider retries exhausted,
          sandbox). They are excluded from the figures and keep the campaign incomplete; once the cause is fixed, retry
          them: each runs again as a new try and its failed try stays in its history.
        </p>
      ) : null}
      {message ? (
        <p className="text-sm text-slate-700" role="status">
          {message}
        </p>
      ) : null}
      {error ? (
        <p className="text-sm text-amber-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
