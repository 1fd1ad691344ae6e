import type { ReactNode } from 'react';
import type { LeaderboardRow } from '@/lib/queries/leaderboard';
import type { Resource } from '@/lib/queries/common';
import { DataTable, type Column } from './data-table';
import { DASH, duration, fraction, int, pct, usd } from './format';
import { RateCell } from './rate-cell';
import { NotApplicableNote } from './empty-state';
import { AgentName, TargetName } from './target-name';

export function ResourceValue({
  r,
  format,
  unknown = 'Unknown: no attempt reported it',
}: {
  r: Resource;
  format: (v: number) => string;
  unknown?: string;
}) {
  if (r.value === null) return <span title={unknown}>{DASH}</span>;
  const notes = [
    r.partial ? `partial: known for ${r.known} of ${r.expected} attempts, so this is a lower bound` : null,
    r.estimated ? 'includes prices estimated from the price table' : null,
  ].filter(Boolean);
  return (
    <span title={notes.join('; ') || `known for all ${r.known} attempts`}>
      {format(r.value)}
      {r.partial ? <sup className="text-amber-700"> partial</sup> : null}
      {r.estimated ? <sup className="text-slate-500"> est.</sup> : null}
    </span>
  );
}

/** Mean per complete trial, with the campaign total underneath as context. */
function PerTrialWithTotal({
  row,
  pick,
  format,
}: {
  row: LeaderboardRow;
  pick: 'costUsd' | 'tokens' | 'apiDurationMs';
  format: (v: number) => string;
}) {
  const unknown =
    row.completeTrials === 0
      ? 'No complete trial round yet (a round counts when every attempt in it has a valid outcome)'
      : 'Unknown: no attempt in a complete round reported it';
  return (
    <div className="tabular-nums">
      <ResourceValue r={row.perTrial[pick]} format={format} unknown={unknown} />
      <div className="text-xs text-slate-500">
        total <ResourceValue r={row.totals[pick]} format={format} />
      </div>
    </div>
  );
}

/** What the leaderboard's order means, said on the page and on its rank columns. */
export const RANKING_RULE =
  'Ranked by the lower bound of the Wilson 95% interval of mean success, so a target with ' +
  'few attempts cannot outrank one with many on luck; ties by mean, then by more attempts.';

function columnsFor(
  showRank: boolean,
  filters: Record<string, string | undefined>,
  countCampaigns: boolean,
  linkModels: boolean,
): Column<LeaderboardRow>[] {
  const columns: Column<LeaderboardRow>[] = [
    {
      header: 'Model · mode',
      sort: (r) => `${r.modelId} ${r.outputMode}`,
      cell: (r) => (
        <TargetName
          modelId={r.modelId}
          outputMode={r.outputMode}
          effort={r.effort}
          filters={filters}
          legacy={r.legacyOnly}
          linked={linkModels}
          note={countCampaigns ? `${r.campaigns} campaign${r.campaigns === 1 ? '' : 's'}` : undefined}
        />
      ),
    },
    // Next to the model: on a phone the key figure is in view without scrolling the table sideways.
    {
      header: 'Mean success',
      sort: (r) => r.meanSuccess.value,
      title: 'Passing valid attempts ÷ valid attempts, with a Wilson 95% interval',
      cell: (r) => <RateCell rate={r.meanSuccess} />,
    },
    // Apart from the model, so one agent with two models and two agents with one model both read as such.
    {
      header: 'Agent',
      sort: (r) => (r.outputMode === 'agent' ? (r.agent ?? '') : null),
      title: 'What drives the model in agent mode: gitbench (our own loop) or a third-party coding agent',
      cell: (r) => <AgentName agent={r.agent} outputMode={r.outputMode} modelId={r.modelId} />,
    },
    {
      header: 'pass_any@n',
      sort: (r) =>
        r.passAny.applicable ? ([...r.passAny.points].reverse().find((p) => p.denominator > 0)?.value ?? null) : null,
      title: 'Share of fixture series that passed at least once in their first n valid attempts',
      cell: (r) => {
        if (!r.passAny.applicable) return <NotApplicableNote />;
        // The largest n with evidence: an incomplete campaign may have no series with n valid attempts.
        const points = r.passAny.points;
        const last = [...points].reverse().find((p) => p.denominator > 0) ?? points[points.length - 1];
        if (!last) return <NotApplicableNote />;
        return (
          <span title={points.map((p) => `n=${p.n}: ${fraction(p)}`).join(', ')}>
            <span className="tabular-nums">
              @{last.n} {pct(last.value)}
            </span>{' '}
            <span className="text-xs tabular-nums text-slate-500">{fraction(last)}</span>
          </span>
        );
      },
    },
    {
      header: 'Stable · flaky · fail',
      sort: (r) => (r.classification.applicable ? r.classification.stablePass : null),
      title: 'Fixture series that always passed · both passed and failed · always failed, of all series',
      className: 'tabular-nums',
      cell: (r) =>
        r.classification.applicable && r.singleTrial ? (
          // One attempt per series says nothing about stability: the counts are passes and failures.
          <span
            title={
              `Every campaign summed here ran one trial: no series can be stable ` +
              `or flaky. ${r.classification.unknown} unknown (no valid attempt)`
            }
          >
            <span className="text-xs font-medium text-slate-600">single trial</span>{' '}
            <span className="text-emerald-700">{r.classification.stablePass}</span> pass ·{' '}
            <span className="text-rose-700">{r.classification.stableFail}</span> fail
            <span className="text-xs text-slate-500"> of {r.classification.fixtures}</span>
          </span>
        ) : r.classification.applicable ? (
          <span
            title={
              `of ${r.classification.fixtures} fixture ` +
              `series; ${r.classification.unknown} unknown (no valid attempt)`
            }
          >
            <span className="text-emerald-700">{r.classification.stablePass}</span> ·{' '}
            <span className="text-amber-700">{r.classification.flaky}</span> ·{' '}
            <span className="text-rose-700">{r.classification.stableFail}</span>
            <span className="text-xs text-slate-500"> of {r.classification.fixtures}</span>
          </span>
        ) : (
          <NotApplicableNote />
        ),
    },
    {
      header: 'Cost / complete trial',
      sort: (r) => r.perTrial.costUsd.value,
      title: 'Mean cost of one complete trial round (every attempt valid); the campaign total underneath',
      cell: (r) => <PerTrialWithTotal row={r} pick="costUsd" format={usd} />,
    },
    {
      header: 'Tokens / complete trial',
      sort: (r) => r.perTrial.tokens.value,
      title: 'Mean tokens of one complete trial round; the total underneath',
      cell: (r) => <PerTrialWithTotal row={r} pick="tokens" format={int} />,
    },
    {
      header: 'API time / complete trial',
      sort: (r) => r.perTrial.apiDurationMs.value,
      title: 'Mean time spent waiting on the provider in one complete trial round; not wall-clock time',
      cell: (r) => <PerTrialWithTotal row={r} pick="apiDurationMs" format={duration} />,
    },
    {
      header: 'Attempts',
      sort: (r) => r.attempts,
      title: 'Attempts, those excluded from quality denominators, and complete trial rounds of all rounds',
      className: 'tabular-nums',
      cell: (r) => {
        const excluded = r.excluded.infra + r.excluded.unscored + r.excluded.other;
        return (
          <>
            {int(r.attempts)}
            {excluded > 0 ? (
              <div
                className="text-xs text-amber-700"
                title={`${r.excluded.infra} infrastructure, ${r.excluded.unscored} unscored, ${r.excluded.other} other`}
              >
                {int(excluded)} excluded
              </div>
            ) : null}
            <div
              className="text-xs text-slate-500"
              title="Trial rounds in which every attempt has a valid outcome, of all rounds"
            >
              {r.completeTrials}/{r.trialRounds} rounds complete
            </div>
          </>
        );
      },
    },
  ];
  if (!showRank) return columns;
  const rank: Column<LeaderboardRow>[] = [
    {
      header: '#',
      title: RANKING_RULE,
      sort: (r) => -r.rank,
      className: 'tabular-nums text-slate-500',
      cell: (r) => r.rank,
    },
    {
      header: 'Rank by',
      title: RANKING_RULE,
      sort: (r) => r.meanSuccess.interval?.low ?? null,
      className: 'tabular-nums',
      cell: (r) => (
        <span title="Lower bound of the Wilson 95% interval of mean success">{pct(r.meanSuccess.interval?.low)}</span>
      ),
    },
  ];
  return [...rank, ...columns];
}

export function LeaderboardTable({
  rows,
  showRank = true,
  filters = {},
  testId = 'leaderboard',
  empty,
  countCampaigns = true,
  linkModels = true,
}: {
  rows: LeaderboardRow[];
  showRank?: boolean;
  filters?: Record<string, string | undefined>;
  testId?: string;
  empty?: ReactNode;
  /** Say over how many campaigns each row is summed (pointless inside one campaign). */
  countCampaigns?: boolean;
  /** Link each model to its page (not for anonymous visitors of the public leaderboard, who may not open it). */
  linkModels?: boolean;
}) {
  return (
    <DataTable
      rows={rows}
      columns={columnsFor(showRank, filters, countCampaigns, linkModels)}
      rowKey={(r) => `${r.suiteVersion ?? ''}|${r.modelId}|${r.outputMode}|${r.agent ?? ''}`}
      testId={testId}
      empty={empty}
      search
      searchLabel="targets"
    />
  );
}
