import Link from 'next/link';
import { isSimulatedModelId } from '@gitbench/core';
import { fixtureHref, modelHref } from '@/components/format';
import { LegacyBadge, SimulatedBadge, StatusBadge } from '@/components/status-badge';
import type { AttemptPageData, AttemptRecord } from '@/lib/queries/attempt';

function Breadcrumb({ a }: { a: AttemptRecord }) {
  return (
    <p className="text-sm text-slate-500">
      <Link className="hover:underline" href={`/campaigns/${a.campaignId}`}>
        {a.campaign.name}
      </Link>{' '}
      /{' '}
      <Link className="hover:underline" href={modelHref(a.modelId, { campaign: a.campaignId })}>
        {a.modelId}
      </Link>{' '}
      /{' '}
      <Link className="hover:underline" href={fixtureHref(a.domain, a.fixtureId, a.campaignId)}>
        {a.domain}/{a.fixtureId}
      </Link>
    </p>
  );
}

/** The other trials of the same fixture and target, this one unlinked. */
function TrialNav({ current, siblings }: { current: string; siblings: AttemptPageData['siblings'] }) {
  if (siblings.length <= 1) return null;
  return (
    <nav className="flex flex-wrap items-center gap-2 text-sm" aria-label="Other trials of this fixture and target">
      <span className="text-slate-500">Trials:</span>
      {siblings.map((s) =>
        s.id === current ? (
          <span key={s.id} className="rounded bg-slate-900 px-2 py-0.5 text-xs text-white">
            {s.trial}
          </span>
        ) : (
          <Link
            key={s.id}
            href={`/attempts/${s.id}`}
            className="hover:opacity-80"
            aria-label={`Trial ${s.trial}: ${s.status}`}
          >
            <StatusBadge status={s.status} title={`Trial ${s.trial}`} />
          </Link>
        ),
      )}
    </nav>
  );
}

/** Where the attempt belongs, what it came to, its error and its sibling trials. */
export function AttemptHeader({ data, reason }: { data: AttemptPageData; reason: string }) {
  const { attempt: a, siblings, rawHidden } = data;
  const simulated = isSimulatedModelId(a.modelId);
  return (
    <div className="space-y-2">
      <Breadcrumb a={a} />
      <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
        Attempt: trial {a.trial} of {a.campaign.trials} <StatusBadge status={a.status} />{' '}
        {a.campaign.legacy ? <LegacyBadge /> : null} {simulated ? <SimulatedBadge /> : null}
      </h1>
      {simulated ? (
        <p className="rounded border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
          Simulated attempt: a seeded coin decided whether this answer is the expected one or a fixed wrong answer. No
          model was called; the tokens and API time are made up to exercise the dashboard.
        </p>
      ) : null}
      <p className="text-sm text-slate-600" data-testid="attempt-summary">
        {a.modelId} · {a.outputMode}
        {a.reasoningEffort ? ` · effort ${a.reasoningEffort}` : ''} · {reason}
        {a.score !== null ? ` · score ${a.score.toFixed(3)}` : ''} · {a.tryCount} tr{a.tryCount === 1 ? 'y' : 'ies'}
      </p>
      {a.errorMessage || (rawHidden && a.errorClass) ? (
        <p
          className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="attempt-error"
        >
          {a.errorClass ? (
            <strong>
              {a.errorClass}
              {a.errorMessage ? ': ' : ''}
            </strong>
          ) : null}
          {a.errorMessage}
        </p>
      ) : null}
      <TrialNav current={a.id} siblings={siblings} />
    </div>
  );
}
