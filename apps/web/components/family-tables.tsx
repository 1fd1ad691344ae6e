import type { GgbRates, MeanRate } from '@gitbench/core';
import type { FamilyTargetStats } from '@gitbench/db';
import { DataTable, type Column } from './data-table';
import { DASH, pct, usd } from './format';
import { RateCell } from './rate-cell';
import { TargetName } from './target-name';

/**
 * The task families' figures per target, as the papers define them; every rate with its numerator,
 * denominator and Wilson 95% interval. Core computed them from the attempts' recorded outcomes.
 */

type Row = FamilyTargetStats;
const rowKey = (r: Row) => `${r.modelId}|${r.reasoningEffort ?? ''}|${r.outputMode}`;

function targetColumn(filters?: Record<string, string | undefined>): Column<Row> {
  return {
    header: 'Target',
    cell: (r) => (
      <TargetName
        modelId={r.modelId}
        outputMode={r.outputMode}
        effort={r.reasoningEffort}
        filters={filters}
        note={
          `${r.campaigns.length} campaign${r.campaigns.length === 1 ? '' : 's'}` +
          (r.unreadable ? ` · ${r.unreadable} outcome(s) unreadable` : '')
        }
      />
    ),
  };
}

function MeanRateCell({ rate, of }: { rate: MeanRate; of: string }) {
  return (
    <div title={`mean over ${rate.n} ${of}`}>
      <span className="font-medium tabular-nums">{pct(rate.value)}</span>{' '}
      <span className="text-xs text-slate-500">mean of {rate.n}</span>
    </div>
  );
}

const num = (v: number | null, digits = 2) => (v === null ? DASH : v.toFixed(digits));

export function RepoTaskTable({ rows, filters }: { rows: Row[]; filters?: Record<string, string | undefined> }) {
  const columns: Column<Row>[] = [
    targetColumn(filters),
    {
      header: 'Tasks',
      className: 'tabular-nums',
      title: 'Every planned attempt: the denominator of both rates',
      cell: (r) => r.metrics.attempts,
    },
    {
      header: 'Execution completion (ECR)',
      title: 'Tasks whose grader said Process true ÷ every task (crashed and timed-out tasks count)',
      cell: (r) =>
        r.metrics.family === 'repo_task' ? (
          <RateCell rate={r.metrics.metrics.ecr} what="executed (Process true)" testId="ecr" />
        ) : null,
    },
    {
      header: 'Task pass (TPR)',
      title: 'Tasks whose grader said Result true ÷ every task',
      cell: (r) =>
        r.metrics.family === 'repo_task' ? (
          <RateCell rate={r.metrics.metrics.tpr} what="passed (Result true)" testId="tpr" />
        ) : null,
    },
    {
      header: 'Alpha value',
      title: 'Mean over tasks with a known cost of T × market value × quality − cost',
      cell: (r) => {
        if (r.metrics.family !== 'repo_task') return null;
        const a = r.metrics.metrics.alpha;
        return (
          <div className="text-xs" data-testid="alpha">
            <div className="text-sm font-medium tabular-nums">{a.value === null ? DASH : usd(a.value)}</div>
            <div className="text-slate-600">
              mean T {num(a.meanT)} × MV {usd(a.meanMarketValueUsd)} × Q {num(a.meanQuality)} − C {usd(a.meanCostUsd)}
            </div>
            <div className="text-slate-500">
              over {a.n} task{a.n === 1 ? '' : 's'}
              {a.unknownCost ? `; ${a.unknownCost} left out (cost unknown)` : ''}
            </div>
            {a.terms.length > 0 ? (
              <details className="mt-1">
                <summary className="cursor-pointer text-slate-600">Per task</summary>
                <table className="mt-1 tabular-nums">
                  <thead>
                    <tr className="text-left text-slate-500">
                      <th className="pr-2 font-normal">task</th>
                      <th className="pr-2 font-normal">T</th>
                      <th className="pr-2 font-normal">MV</th>
                      <th className="pr-2 font-normal">Q</th>
                      <th className="pr-2 font-normal">C</th>
                      <th className="font-normal">T×MV×Q−C</th>
                    </tr>
                  </thead>
                  <tbody>
                    {a.terms.map((t, i) => (
                      <tr key={i}>
                        <td className="pr-2 font-mono">{t.fixture}</td>
                        <td className="pr-2">{t.t}</td>
                        <td className="pr-2">{usd(t.marketValueUsd)}</td>
                        <td className="pr-2">{t.quality}</td>
                        <td className="pr-2">{usd(t.costUsd)}</td>
                        <td>{usd(t.net)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            ) : null}
          </div>
        );
      },
    },
  ];
  return (
    <DataTable
      rows={rows}
      columns={columns}
      rowKey={rowKey}
      testId="family-repo_task"
      caption="Repository tasks (GitTaskBench's metrics) per target"
    />
  );
}

export function GistTable({ rows, filters }: { rows: Row[]; filters?: Record<string, string | undefined> }) {
  const columns: Column<Row>[] = [
    targetColumn(filters),
    {
      header: 'Tasks',
      className: 'tabular-nums',
      title: 'Every planned attempt: the denominator of execution fidelity',
      cell: (r) => r.metrics.attempts,
    },
    {
      header: 'Execution fidelity',
      title: "Gists whose command gives the original's outcome and output ÷ every task",
      cell: (r) =>
        r.metrics.family === 'gist' ? (
          <RateCell rate={r.metrics.metrics.fidelity} what="with the original's outcome and output" testId="fidelity" />
        ) : null,
    },
    {
      header: 'Line execution rate',
      title: 'Mean over the gists that ran of the share of their executable lines the tracer saw run',
      cell: (r) =>
        r.metrics.family === 'gist' ? (
          <MeanRateCell rate={r.metrics.metrics.lineExecution} of="gists that ran" />
        ) : null,
    },
    {
      header: 'Line existence rate',
      title:
        'Mean over the gists that exist and parse of the share of their lines found in the original (matched by block)',
      cell: (r) =>
        r.metrics.family === 'gist' ? (
          <MeanRateCell rate={r.metrics.metrics.lineExistence} of="gists that parse" />
        ) : null,
    },
    {
      header: 'Without fidelity, why',
      className: 'text-xs text-slate-700',
      cell: (r) =>
        r.metrics.family === 'gist'
          ? Object.entries(r.metrics.metrics.failures)
              .map(([why, n]) => `${why.replace(/_/g, ' ')} ${n}`)
              .join(', ') || DASH
          : null,
    },
  ];
  return (
    <DataTable
      rows={rows}
      columns={columns}
      rowKey={rowKey}
      testId="family-gist"
      caption="Gists (Gistify's metrics) per target"
    />
  );
}

const SCENARIO_NAMES = {
  mcr: 'Merge conflict resolution (MCR)',
  ir: 'Interactive rebase (IR)',
  icc: 'Iterative committing (ICC)',
} as const;

interface GgbLine {
  key: string;
  row: Row;
  scenario: string;
  difficulty: string;
  rates: GgbRates;
}

function ggbLines(rows: Row[], breakdown: 'scenario' | 'band'): GgbLine[] {
  return rows.flatMap((row) => {
    if (row.metrics.family !== 'ggb') return [];
    const m = row.metrics.metrics;
    const overall: GgbLine = {
      key: `${rowKey(row)}|all`,
      row,
      scenario: 'All scenarios',
      difficulty: 'all',
      rates: m.overall,
    };
    const parts =
      breakdown === 'scenario'
        ? m.byScenario.map((s) => ({
            key: `${rowKey(row)}|${s.scenario}`,
            row,
            scenario: SCENARIO_NAMES[s.scenario],
            difficulty: 'all',
            rates: s.rates,
          }))
        : m.byBand.map((b) => ({
            key: `${rowKey(row)}|${b.scenario}|${b.difficulty}`,
            row,
            scenario: SCENARIO_NAMES[b.scenario],
            difficulty: b.difficulty,
            rates: b.rates,
          }));
    return breakdown === 'scenario' ? [overall, ...parts] : parts;
  });
}

export function GgbTable({
  rows,
  filters,
  breakdown,
}: {
  rows: Row[];
  filters?: Record<string, string | undefined>;
  breakdown: 'scenario' | 'band';
}) {
  const columns: Column<GgbLine>[] = [
    { header: 'Target', cell: (l) => targetColumn(filters).cell(l.row, 0) },
    { header: 'Scenario type', cell: (l) => l.scenario },
    { header: 'Difficulty', cell: (l) => l.difficulty },
    { header: 'Attempts', className: 'tabular-nums', cell: (l) => l.rates.attempts },
    {
      header: 'Success rate',
      title: 'Runs that ended without a system error ÷ every attempt',
      cell: (l) => <RateCell rate={l.rates.success} what="ended without a system error" testId="ggb-success" />,
    },
    {
      header: 'Solve rate',
      title: 'Solved ÷ every attempt except those the judge left unscored',
      cell: (l) => <RateCell rate={l.rates.solve} what="solved" testId="ggb-solve" />,
    },
    {
      header: 'Unscored',
      className: 'tabular-nums',
      title: 'The judge could not decide: left out of the solve rate, never scored another way',
      cell: (l) => l.rates.unscored,
    },
  ];
  return (
    <DataTable
      rows={ggbLines(rows, breakdown)}
      columns={columns}
      rowKey={(l) => l.key}
      testId={`family-ggb-${breakdown}`}
      caption={
        breakdown === 'scenario'
          ? 'GitGoodBench per target and scenario type'
          : 'GitGoodBench per scenario type and difficulty band'
      }
    />
  );
}
