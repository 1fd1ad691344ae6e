'use client';

import {
  CancelButton,
  CancelConfirmation,
  ProgressBar,
  ProgressSummary,
  RetryButton,
  RetryHint,
  StatusCounts,
} from './campaign-live-parts';
import { useCampaignActions, useCampaignProgress, type Progress } from './use-campaign-progress';

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
  const { progress, etaSeconds, error, active, reread } = useCampaignProgress(campaignId, initial, initialEtaSeconds);
  const { busy, confirmingCancel, setConfirmingCancel, message, act } = useCampaignActions(campaignId, reread);
  const infra = progress.byStatus.INFRA_FAILURE ?? 0;
  const retryable = !legacy && infra > 0 && progress.status !== 'CANCELLED';
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="campaign-progress">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ProgressSummary progress={progress} active={active} etaSeconds={etaSeconds} />
        <div className="flex gap-2">
          {active ? (
            <CancelButton
              busy={busy === 'cancel'}
              disabled={busy !== null || confirmingCancel}
              onClick={() => setConfirmingCancel(true)}
            />
          ) : null}
          {!legacy && (infra > 0 || progress.status === 'FAILED') && progress.status !== 'CANCELLED' ? (
            <RetryButton
              status={progress.status}
              infra={infra}
              busy={busy === 'retry'}
              disabled={busy !== null}
              onClick={() => act('retry')}
            />
          ) : null}
        </div>
      </div>
      <ProgressBar progress={progress} />
      {confirmingCancel && active ? (
        <CancelConfirmation
          progress={progress}
          onConfirm={() => act('cancel')}
          onBack={() => setConfirmingCancel(false)}
        />
      ) : null}
      <StatusCounts progress={progress} active={active} />
      {!active && retryable ? <RetryHint infra={infra} /> : null}
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
