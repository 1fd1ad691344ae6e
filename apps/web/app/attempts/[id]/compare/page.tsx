import Link from 'next/link';
import { forbidden, notFound } from 'next/navigation';
import { roleAtLeast } from '@gitbench/core';
import { EmptyState } from '@/components/empty-state';
import { StatusBadge } from '@/components/status-badge';
import { CompareView } from '@/components/trajectory/compare-view';
import { requirePage } from '@/lib/auth/guard';
import { getTrajectoryComparison, type CompareSide } from '@/lib/queries/trajectory-compare';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const title = (s: CompareSide) => `${s.modelId} · trial ${s.trial}`;

function SideSummary({ side, label }: { side: CompareSide; label: string }) {
  const m = side.view.meta;
  return (
    <div
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm"
      data-testid={`compare-side-${label.toLowerCase()}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{label}</span>
        <Link className="text-indigo-700 hover:underline" href={`/attempts/${side.attemptId}`}>
          {title(side)}
        </Link>
        <StatusBadge status={side.status} />
      </div>
      <p className="text-xs text-slate-600">
        {side.campaignName} · {m.steps} steps · {m.failedSteps} failed · ended{' '}
        {m.exitStatus?.replace(/_/g, ' ') ?? m.status}
        {m.costUsd !== null ? ` · $${m.costUsd.toFixed(4)}` : ''}
      </p>
    </div>
  );
}

export default async function CompareTrajectoriesPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ with?: string }>;
}) {
  const actor = await requirePage('viewer');
  const { id } = await params;
  const { with: otherId } = await searchParams;
  const db = services().db;
  // Raw steps reach viewers only from published campaigns (see trajectoryHidden): the query offers a
  // viewer, and picks by default, only attempts of published campaigns, and answers hidden when A or
  // the attempt named by ?with= is one they may not open.
  const onlyPublished = !roleAtLeast(actor.role, 'member');
  const cmp = await getTrajectoryComparison(db, id, typeof otherId === 'string' && otherId ? otherId : undefined, {
    onlyPublished,
  });
  if (!cmp) notFound();
  if (cmp.hidden) forbidden();
  const { a, b, candidates, sameFixture } = cmp;
  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <p className="text-sm text-slate-500">
          <Link className="hover:underline" href={`/attempts/${a.attemptId}`}>
            ← attempt {a.attemptId}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">
          Compare trajectories: {a.domain}/{a.fixtureId}
        </h1>
      </div>
      <form method="get" className="flex flex-wrap items-end gap-2 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">Compare with another attempt of this fixture</span>
          <select
            name="with"
            defaultValue={b?.attemptId ?? ''}
            className="rounded border border-slate-300 px-2 py-1"
            aria-label="Other attempt"
          >
            {candidates.map((c) => (
              <option key={c.id} value={c.id}>
                {c.modelId} · trial {c.trial} · {c.status.replace(/_/g, ' ').toLowerCase()} · {c.steps} steps ·{' '}
                {c.campaignName}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white" disabled={!candidates.length}>
          Compare
        </button>
      </form>
      {!b ? (
        <EmptyState title="No other attempt of this fixture has a trajectory yet." />
      ) : (
        <>
          {!sameFixture ? (
            <p className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">
              These attempts ran different fixtures.
            </p>
          ) : null}
          <div className="grid gap-3 lg:grid-cols-2">
            <SideSummary side={a} label="A" />
            <SideSummary side={b} label="B" />
          </div>
          <CompareView
            key={`${a.attemptId}:${b.attemptId}`}
            a={{ attemptId: a.attemptId, title: title(a), tryNumber: a.view.meta.tryNumber, heads: a.view.heads }}
            b={{ attemptId: b.attemptId, title: title(b), tryNumber: b.view.meta.tryNumber, heads: b.view.heads }}
          />
        </>
      )}
    </div>
  );
}
