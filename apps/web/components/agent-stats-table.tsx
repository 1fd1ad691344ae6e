import Link from 'next/link';
import type { AgentEnd, AgentTargetStats } from '@gitbench/db';
import { DataTable } from './data-table';
import { isHumanModelId } from '@gitbench/core';
import { modelHref, usd } from './format';
import { HumanBadge } from './status-badge';
import { AgentName } from './target-name';

/**
 * Colours of the exit statuses: done (submit), stopped by a limit, the model's fault, infrastructure, tampering,
 * unfinished.
 */
const END_STYLE: Record<AgentEnd, { colour: string; label: string }> = {
  submitted: { colour: 'bg-emerald-500', label: 'submitted' },
  model_stopped: { colour: 'bg-emerald-300', label: 'model stopped' },
  turn_limit: { colour: 'bg-rose-500', label: 'turn limit' },
  token_limit: { colour: 'bg-rose-400', label: 'token limit' },
  cost_limit: { colour: 'bg-rose-300', label: 'cost limit' },
  time_limit: { colour: 'bg-rose-200', label: 'time limit' },
  format_errors: { colour: 'bg-orange-400', label: 'format errors' },
  agent_crashed: { colour: 'bg-orange-600', label: 'agent crashed' },
  model_error: { colour: 'bg-amber-300', label: 'model error (infra)' },
  sandbox_error: { colour: 'bg-amber-200', label: 'sandbox error (infra)' },
  tampering: { colour: 'bg-red-700', label: 'tampering (counted failure)' },
  cancelled: { colour: 'bg-slate-400', label: 'cancelled' },
  running: { colour: 'bg-sky-300', label: 'running' },
  abandoned: { colour: 'bg-slate-300', label: 'abandoned' },
};

function ExitDistribution({ exits, total }: { exits: Record<AgentEnd, number>; total: number }) {
  const present = (Object.keys(END_STYLE) as AgentEnd[]).filter((e) => exits[e] > 0);
  return (
    <div className="min-w-48 space-y-1">
      <div className="flex h-2.5 w-full overflow-hidden rounded bg-slate-100" aria-hidden>
        {present.map((e) => (
          <span
            key={e}
            className={END_STYLE[e].colour}
            style={{ width: `${(exits[e] / Math.max(1, total)) * 100}%` }}
            title={`${END_STYLE[e].label}: ${exits[e]}`}
          />
        ))}
      </div>
      <div className="flex flex-wrap gap-x-2 text-[11px] text-slate-600">
        {present.map((e) => (
          <span key={e} className="whitespace-nowrap">
            <span className={`mr-0.5 inline-block h-2 w-2 rounded-sm ${END_STYLE[e].colour}`} aria-hidden />
            {END_STYLE[e].label} {exits[e]}
          </span>
        ))}
      </div>
    </div>
  );
}

/**
 * Agent targets: how many steps an attempt takes, how the loops ended, and what a solved fixture
 * costs (every attempt's cost, failures included, over the fixtures solved at least once).
 */
export function AgentStatsTable({
  rows,
  campaignNames,
  testId = 'agent-stats',
  linkModels = true,
}: {
  rows: AgentTargetStats[];
  campaignNames?: Record<string, string>;
  testId?: string;
  /** Link each model to its page (not for anonymous visitors of the public leaderboard). */
  linkModels?: boolean;
}) {
  return (
    <DataTable
      rows={rows}
      rowKey={(r) => `${r.campaignId}:${r.modelId}:${r.outputMode}:${r.agent ?? ''}`}
      testId={testId}
      columns={[
        ...(campaignNames
          ? [
              {
                header: 'Campaign',
                cell: (r: AgentTargetStats) =>
                  r.campaignId ? (
                    <Link className="text-indigo-700 hover:underline" href={`/campaigns/${r.campaignId}`}>
                      {campaignNames[r.campaignId] ?? r.campaignId}
                    </Link>
                  ) : null,
              },
            ]
          : []),
        {
          header: 'Model',
          cell: (r) => (
            <>
              {linkModels ? (
                <Link className="text-indigo-700 hover:underline" href={modelHref(r.modelId)}>
                  {r.modelId}
                </Link>
              ) : (
                r.modelId
              )}
              {isHumanModelId(r.modelId) ? (
                <>
                  {' '}
                  <HumanBadge />
                </>
              ) : null}
            </>
          ),
        },
        {
          header: 'Agent',
          title: 'What drives the model: gitbench (our own loop) or a third-party coding agent',
          cell: (r) => <AgentName agent={r.agent} outputMode={r.outputMode} modelId={r.modelId} />,
        },
        { header: 'Attempts', className: 'tabular-nums', cell: (r) => r.attempts },
        {
          header: 'Steps per attempt',
          title: 'Mean steps of the latest try of each attempt, and the most any took',
          className: 'tabular-nums',
          cell: (r) => `${r.stepsMean.toFixed(1)} (max ${r.stepsMax})`,
        },
        {
          header: 'How the loops ended',
          title: 'Exit status of each attempt’s latest try',
          cell: (r) => <ExitDistribution exits={r.exits} total={r.attempts} />,
        },
        {
          header: 'Solved fixtures',
          title: 'Fixtures with at least one passing attempt / fixtures tried',
          className: 'tabular-nums',
          cell: (r) => `${r.solvedFixtures}/${r.fixtures}`,
        },
        {
          header: 'Cost',
          title: 'Every attempt’s cost; — when any is unknown',
          className: 'tabular-nums',
          cell: (r) => usd(r.costUsd),
        },
        {
          header: 'Cost per solved fixture',
          title: 'Cost of every attempt ÷ fixtures solved at least once',
          className: 'tabular-nums',
          cell: (r) => usd(r.costPerSolvedFixture),
        },
      ]}
    />
  );
}
