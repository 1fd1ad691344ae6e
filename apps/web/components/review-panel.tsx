'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { LocalTime } from './local-time';
import { errorText, sendJson } from './send-json';

const STATE_TEXT: Record<string, string> = {
  not_configured: "not configured: no reviewer reads this deployment's outputs (GITBENCH_SAFETY_REVIEW)",
  pending: "pending: waiting for the reviewer or for a member's decision",
  approved: 'approved',
  blocked: 'blocked: some outputs must not be shown',
};

/** The campaign's safety review and publication; members and admins decide and publish. */
export function ReviewPanel(props: {
  campaignId: string;
  safetyReview: string;
  publishedAt: string | null;
  publishedBy: string | null;
  canAct: boolean;
  finished: boolean;
  /** GITBENCH_PUBLIC_LEADERBOARD is on: publishing also shows the campaign's aggregates to anyone. */
  publicLeaderboard: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  async function post(path: string, body: unknown) {
    setError(null);
    const done = await sendJson(`/api/campaigns/${props.campaignId}/${path}`, 'POST', body);
    if (!done.ok) return setError(errorText(done.json, done.status));
    router.refresh();
  }
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="review-panel">
      <p data-testid="safety-review">Safety review: {STATE_TEXT[props.safetyReview] ?? props.safetyReview}</p>
      <p data-testid="publication">
        {props.publishedAt ? (
          <>
            Published <LocalTime at={props.publishedAt} /> by {props.publishedBy ?? 'unknown'}: viewers see its raw
            outputs
            {props.publicLeaderboard ? ', and anyone its aggregates on the public leaderboard (never its outputs)' : ''}
            .
          </>
        ) : (
          `Not published: only members and admins see its raw ` +
          `outputs.${props.publicLeaderboard ? ' Publishing also puts its aggregates on the public leaderboard.' : ''}`
        )}
      </p>
      {props.canAct ? (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="rounded border border-emerald-300 px-3 py-1"
            onClick={() => post('review', { decision: 'approved' })}
          >
            Approve outputs
          </button>
          <button
            type="button"
            className="rounded border border-rose-300 px-3 py-1"
            onClick={() => post('review', { decision: 'blocked' })}
          >
            Block outputs
          </button>
          {props.publishedAt ? (
            <button
              type="button"
              className="rounded border border-slate-300 px-3 py-1"
              onClick={() => post('publish', { publish: false })}
            >
              Unpublish
            </button>
          ) : (
            <button
              type="button"
              disabled={!props.finished}
              className="rounded bg-indigo-600 px-3 py-1 text-white disabled:opacity-50"
              onClick={() => post('publish', { publish: true })}
            >
              Publish
            </button>
          )}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
