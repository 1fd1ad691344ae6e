import Link from 'next/link';
import type { FixtureTable, FixtureTableRow } from '@/lib/queries/campaign';
import type { TargetKey } from '@/lib/queries/common';
import { DataTable, type Column } from './data-table';
import { EmptyState } from './empty-state';
import { fixtureHref } from './format';
import { SeriesClassBadge } from './status-badge';
import { ModelLabel } from './target-name';
import { AttemptLinks } from './attempt-links';

type Target = TargetKey & { id: string };

function SeriesCell({ cell }: { cell: FixtureTableRow['cells'][string] | undefined }) {
  if (!cell) return <span className="text-slate-400">no attempts</span>;
  const cls = cell.summary.classification;
  const partial = cls.applicable && cls.evidence === 'partial';
  return (
    <>
      <div className="flex flex-wrap items-center gap-1">
        {cls.applicable ? (
          <SeriesClassBadge
            cls={cls.class}
            plannedTrials={cell.summary.series.plannedTrials}
            title={
              `${cls.passes}/${cls.valid} valid attempts ` +
              `passed${partial ? '; fewer valid attempts than trials' : ''}`
            }
          />
        ) : null}
        <span className="text-xs tabular-nums text-slate-600" title="Valid attempts that passed / valid attempts">
          {cell.summary.meanSuccess.numerator}/{cell.summary.meanSuccess.denominator}
          {partial ? ' partial' : ''}
        </span>
      </div>
      <AttemptLinks attempts={cell.attempts} className="mt-1" />
    </>
  );
}

/** The campaign's fixtures, one column per target: classification, passes/valid, and every attempt. */
export function CampaignFixtureTable({
  campaignId,
  targets,
  table,
  domain,
  noAttempts,
}: {
  campaignId: string;
  targets: Target[];
  table: FixtureTable;
  domain?: string;
  /** What to say when the campaign has no attempts at all (depends on its status). */
  noAttempts: string;
}) {
  const columns: Column<FixtureTableRow>[] = [
    {
      header: 'Fixture',
      sort: (r) => `${r.domain}/${r.fixtureId}`,
      cell: (r) => (
        <>
          <Link className="text-indigo-700 hover:underline" href={fixtureHref(r.domain, r.fixtureId, campaignId)}>
            {r.domain}/{r.fixtureId}
          </Link>
          <div className="text-xs text-slate-500">{r.difficulty}</div>
        </>
      ),
    },
    ...targets.map((t): Column<FixtureTableRow> => ({
      header: <ModelLabel modelId={t.modelId} outputMode={t.outputMode} agent={t.agent} />,
      sort: (r) => r.cells[t.id]?.summary.meanSuccess.value ?? null,
      cell: (r) => <SeriesCell cell={r.cells[t.id]} />,
    })),
  ];
  const pages = Math.max(1, Math.ceil(table.total / table.pageSize));
  const pageHref = (p: number) =>
    `/campaigns/${campaignId}?page=${p}${domain ? `&domain=${encodeURIComponent(domain)}` : ''}#fixtures`;
  return (
    <>
      <DataTable
        rows={table.rows}
        columns={columns}
        rowKey={(r) => `${r.domain}/${r.fixtureId}`}
        testId="fixture-table"
        searchLabel="fixtures on this page"
        search={(r) => r.difficulty}
        empty={
          <EmptyState title={domain ? `No attempts in domain ${domain}` : 'No attempts yet'}>
            {domain ? 'Choose another domain, or All.' : noAttempts}
          </EmptyState>
        }
      />
      {pages > 1 ? (
        <nav className="flex items-center gap-3 text-sm" aria-label="Fixture pages">
          {table.page > 1 ? (
            <Link href={pageHref(table.page - 1)} className="text-indigo-700 hover:underline">
              ← Previous
            </Link>
          ) : null}
          <span className="text-slate-600">
            Page {table.page} of {pages}
          </span>
          {table.page < pages ? (
            <Link href={pageHref(table.page + 1)} className="text-indigo-700 hover:underline">
              Next →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
