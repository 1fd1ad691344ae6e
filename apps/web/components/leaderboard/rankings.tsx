import Link from 'next/link';
import { LeaderboardTable, RANKING_RULE } from '@/components/leaderboard-table';
import { ALL_SUITES, filtersQuery, type DashboardFilters } from '@/lib/queries/filters';
import type { Leaderboard } from '@/lib/queries/leaderboard';

interface RankingProps {
  board: Leaderboard;
  filters: DashboardFilters;
  linkModels: boolean;
}

/** The rule the rows are ranked by, whether suites are pooled, and a link to the other way. */
function RankingRule({ board, filters }: Omit<RankingProps, 'linkModels'>) {
  return (
    <p className="text-sm text-slate-700" data-testid="ranking-rule">
      {RANKING_RULE}{' '}
      {board.pooled
        ? 'Every suite version is pooled into one row per target, as asked: rows may sum different fixture sets.'
        : 'Each suite version is ranked on its own: a row never sums campaigns of different suites.'}{' '}
      {board.pooled || board.suites.length > 1 ? (
        <Link
          className="text-indigo-700 underline"
          href={filtersQuery({ ...filters, suite: board.pooled ? undefined : ALL_SUITES })}
        >
          {board.pooled ? 'Rank each suite apart' : 'Pool every suite instead'}
        </Link>
      ) : null}
    </p>
  );
}

/** One ranking per suite version, headed by the version unless the reader chose the only one shown. */
function RankingsBySuite({ board, filters, linkModels }: RankingProps) {
  return (
    <>
      {board.suites.map((suite) => (
        <section
          key={suite}
          aria-labelledby={`suite-${suite}`}
          className="space-y-2"
          data-testid="suite-ranking"
          data-suite={suite}
        >
          {board.suites.length > 1 || !filters.suite ? (
            <h2 id={`suite-${suite}`} className="text-base font-semibold">
              Suite version <code className="text-sm">{suite}</code>
            </h2>
          ) : null}
          <LeaderboardTable
            rows={board.rows.filter((r) => r.suiteVersion === suite)}
            filters={filters}
            linkModels={linkModels}
          />
        </section>
      ))}
    </>
  );
}

/** The ranking itself: its rule, one table (pooled) or one per suite version, and how resources are counted. */
export function Rankings({ board, filters, linkModels }: RankingProps) {
  return (
    <>
      <RankingRule board={board} filters={filters} />
      {board.pooled ? (
        <LeaderboardTable rows={board.rows} filters={filters} linkModels={linkModels} />
      ) : (
        <RankingsBySuite board={board} filters={filters} linkModels={linkModels} />
      )}
      <p className="text-xs text-slate-500">
        Cost, tokens and API time are means per complete trial round (a round counts when every one of its attempts has
        a valid outcome), so campaigns with different trial counts compare fairly; the campaign totals are shown
        underneath. &ldquo;—&rdquo; means unknown, never zero.
        {board.rows.some((r) => r.simulated)
          ? ' Rows marked simulated come from the seeded simulated model: a ' +
            'coin, not a model, useful to see flaky fixtures and pass_any_at_n.'
          : ''}
      </p>
    </>
  );
}
