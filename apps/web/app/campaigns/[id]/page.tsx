import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CampaignLive } from '@/components/campaign-live';
import { CompletenessPanel } from '@/components/completeness-panel';
import { EmptyState, Section } from '@/components/empty-state';
import { date, duration, fixtureHref, int, modelHref, usd } from '@/components/format';
import { Heatmap } from '@/components/heatmap';
import { LeaderboardTable, ResourceValue } from '@/components/leaderboard-table';
import { LegacyBadge, StatusBadge } from '@/components/status-badge';
import { getCampaignFixtureTable, getCampaignOverview } from '@/lib/queries/campaign';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export default async function CampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { id } = await params;
  const sp = await searchParams;
  const page = Math.max(1, Number(sp.page) || 1);
  const { db } = services();
  const [o, table] = await Promise.all([getCampaignOverview(db, id), getCampaignFixtureTable(db, id, { page, domain: sp.domain || undefined })]);
  if (!o || !table) notFound();
  const c = o.campaign;
  const total = Object.values(o.statusCounts).reduce((a, b) => a + (b ?? 0), 0);
  const targetLabel = (t: { modelId: string; outputMode: string }) => `${t.modelId} · ${t.outputMode}`;
  const pages = Math.max(1, Math.ceil(table.total / table.pageSize));
  const pageHref = (p: number) => `/campaigns/${id}?page=${p}${sp.domain ? `&domain=${encodeURIComponent(sp.domain)}` : ''}#fixtures`;

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm text-slate-500">
          <Link href="/campaigns" className="hover:underline">
            Campaigns
          </Link>{' '}
          / {c.id}
        </p>
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
          {c.name} <StatusBadge status={c.status} /> {c.legacy ? <LegacyBadge /> : null}
        </h1>
        <p className="text-sm text-slate-600">
          By {c.createdBy} · created {date(c.createdAt)} · suite {c.suiteVersion} · {c.trials} trial{c.trials === 1 ? '' : 's'} ·{' '}
          {o.targets.length} target{o.targets.length === 1 ? '' : 's'} × {o.fixtureCount} fixtures · seed {c.seed} · wall clock{' '}
          {duration(o.wallClockMs)}
        </p>
        <p className="font-mono text-xs text-slate-500">config hash {c.configHash}</p>
        {c.statusDetail ? <p className="text-sm text-rose-700">{c.statusDetail}</p> : null}
        {c.legacy ? (
          <p className="rounded border border-violet-200 bg-violet-50 p-3 text-sm text-violet-900">
            A legacy campaign imported from an upstream result file: one trial and no repeated-trial evidence, so no stability
            classification or pass_any_at_n is claimed for it. It is never in default rankings.
          </p>
        ) : null}
        <div className="flex gap-2 text-sm">
          <a className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50" href={`/api/export/campaigns/${id}?format=csv`}>
            Export attempts (CSV)
          </a>
          <a className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50" href={`/api/export/campaigns/${id}?format=json`}>
            Export attempts (JSON)
          </a>
          <a className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50" href={`/api/export/campaigns/${id}?format=aa`}>
            Export artificialanalysis rows (CSV)
          </a>
        </div>
      </div>

      <CampaignLive
        campaignId={id}
        legacy={c.legacy}
        initial={{ status: c.status, total, done: o.done, byStatus: o.statusCounts as Record<string, number> }}
        initialEtaSeconds={o.etaMs === null ? null : o.etaMs / 1000}
      />

      <Section title="Completeness" id="completeness-title">
        <CompletenessPanel completeness={o.completeness} legacy={c.legacy} />
      </Section>

      <Section
        title="Per model"
        id="per-model"
        aside={<span className="text-xs text-slate-500">stats refreshed {date(o.statsRefreshedAt)}</span>}
      >
        {o.perModel.length === 0 ? (
          o.done > 0 ? (
            <EmptyState title="Aggregates not computed yet">
              {o.done} attempt(s) have finished, but this campaign&apos;s stats have not been refreshed since. They are refreshed while a campaign
              runs and when it completes; the fixture table below already reads the attempts directly.
            </EmptyState>
          ) : (
            <EmptyState title="No finished attempts yet">Figures appear here as attempts finish.</EmptyState>
          )
        ) : (
          <>
            <LeaderboardTable rows={o.perModel} showRank={false} filters={{ campaign: id }} />
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table className="min-w-full text-sm">
                <caption className="px-3 pt-2 text-left text-xs text-slate-500">
                  Exact means per complete trial (a trial round counts when all its attempts are valid) and campaign totals.
                </caption>
                <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th className="px-3 py-2">Target</th>
                    <th className="px-3 py-2">Complete trials</th>
                    <th className="px-3 py-2">Cost / complete trial</th>
                    <th className="px-3 py-2">Tokens / complete trial</th>
                    <th className="px-3 py-2">API time / complete trial</th>
                    <th className="px-3 py-2">Total cost</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {o.targets.map((t) => {
                    const r = o.perCompleteTrial[t.id]!;
                    const m = o.perModel.find((p) => p.modelId === t.modelId && p.outputMode === t.outputMode);
                    return (
                      <tr key={t.id}>
                        <td className="px-3 py-2">
                          <Link className="text-indigo-700 hover:underline" href={modelHref(t.modelId, { campaign: id })}>
                            {targetLabel(t)}
                          </Link>
                        </td>
                        <td className="px-3 py-2 tabular-nums">
                          {r.completeTrials}/{c.trials}
                        </td>
                        <td className="px-3 py-2 tabular-nums">
                          <ResourceValue r={r.costUsd} format={usd} />
                        </td>
                        <td className="px-3 py-2 tabular-nums">
                          <ResourceValue r={r.tokens} format={int} />
                        </td>
                        <td className="px-3 py-2 tabular-nums">
                          <ResourceValue r={r.apiDurationMs} format={duration} />
                        </td>
                        <td className="px-3 py-2 tabular-nums">{m ? <ResourceValue r={m.totals.costUsd} format={usd} /> : '—'}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Section>

      {o.heatmap.length > 0 ? (
        <Section title="Mean success by model and domain" id="heatmap-title">
          <Heatmap
            rows={o.targets.map((t) => ({ id: t.id, label: targetLabel(t) }))}
            columns={o.domains}
            cell={(rowId, domain) => o.heatmap.find((h) => h.targetId === rowId && h.domain === domain)?.rate}
          />
        </Section>
      ) : null}

      <Section
        title={`Fixtures (${table.total})`}
        id="fixtures"
        aside={
          <form method="get" className="flex items-end gap-2 text-sm" aria-label="Filter fixtures by domain">
            <label className="flex items-center gap-2">
              Domain
              <select name="domain" defaultValue={sp.domain ?? ''} className="rounded border border-slate-300 bg-white px-2 py-1">
                <option value="">All</option>
                {o.domains.map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <button className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50" type="submit">
              Show
            </button>
          </form>
        }
      >
        {table.rows.length === 0 ? (
          <EmptyState title="No fixtures match">This campaign has no fixture in that domain.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-sm" data-testid="fixture-table">
              <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th className="px-3 py-2">Fixture</th>
                  {o.targets.map((t) => (
                    <th key={t.id} className="px-3 py-2">
                      {targetLabel(t)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {table.rows.map((r) => (
                  <tr key={`${r.domain}/${r.fixtureId}`} className="align-top">
                    <td className="px-3 py-2">
                      <Link className="text-indigo-700 hover:underline" href={fixtureHref(r.domain, r.fixtureId, id)}>
                        {r.domain}/{r.fixtureId}
                      </Link>
                      <div className="text-xs text-slate-500">{r.difficulty}</div>
                    </td>
                    {o.targets.map((t) => {
                      const cell = r.cells[t.id];
                      if (!cell) return <td key={t.id} className="px-3 py-2 text-slate-400">no attempts</td>;
                      const cls = cell.summary.classification;
                      return (
                        <td key={t.id} className="px-3 py-2">
                          <div className="flex flex-wrap items-center gap-1">
                            {cls.applicable ? (
                              <StatusBadge
                                status={cls.class}
                                title={`${cls.passes}/${cls.valid} valid attempts passed${cls.evidence === 'partial' ? '; fewer valid attempts than trials' : ''}`}
                              />
                            ) : null}
                            <span className="text-xs tabular-nums text-slate-600">
                              {cell.summary.meanSuccess.numerator}/{cell.summary.meanSuccess.denominator}
                              {cls.applicable && cls.evidence === 'partial' ? ' partial' : ''}
                            </span>
                          </div>
                          <div className="mt-1 flex flex-wrap gap-1">
                            {cell.attempts.map((a) => (
                              <Link key={a.id} href={`/attempts/${a.id}`} className="hover:opacity-80" aria-label={`Trial ${a.trial}: ${a.status}`}>
                                <StatusBadge status={a.status} title={`Trial ${a.trial}`} />
                              </Link>
                            ))}
                          </div>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 ? (
          <nav className="flex items-center gap-3 text-sm" aria-label="Fixture pages">
            {page > 1 ? <Link href={pageHref(page - 1)} className="text-indigo-700 hover:underline">← Previous</Link> : null}
            <span className="text-slate-600">
              Page {page} of {pages}
            </span>
            {page < pages ? <Link href={pageHref(page + 1)} className="text-indigo-700 hover:underline">Next →</Link> : null}
          </nav>
        ) : null}
      </Section>
    </div>
  );
}
