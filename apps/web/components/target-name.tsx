import Link from 'next/link';
import { isHumanModelId, isReplayModelId, isSimulatedModelId, OWN_AGENT } from '@gitbench/core';
import { modelHref } from './format';
import { HumanBadge, LegacyBadge, ReplayBadge, SimulatedBadge } from './status-badge';

/**
 * A target (agent × model × effort × output mode) as every table names it: the model linked to its page, the
 * output mode and effort underneath, and a badge wherever its results are simulated, replayed, a person's or legacy.
 */
export function TargetName({
  modelId,
  outputMode,
  effort,
  filters,
  legacy = false,
  note,
  linked = true,
}: {
  modelId: string;
  outputMode?: string;
  effort?: string | null;
  /** Kept on the link, so the model page shows the same selection. */
  filters?: Record<string, string | undefined>;
  legacy?: boolean;
  note?: string;
  /** False where the reader may not open model pages (an anonymous visitor of the public leaderboard). */
  linked?: boolean;
}) {
  const details = [outputMode, effort ? `effort ${effort}` : null, note].filter(Boolean).join(' · ');
  return (
    <div>
      {linked ? (
        <Link href={modelHref(modelId, filters)} className="font-medium text-indigo-700 hover:underline">
          {modelId}
        </Link>
      ) : (
        <span className="font-medium">{modelId}</span>
      )}
      {details || legacy || isSimulatedModelId(modelId) || isReplayModelId(modelId) || isHumanModelId(modelId) ? (
        <div className="mt-0.5 flex flex-wrap items-center gap-1 text-xs text-slate-500">
          {details}
          {isSimulatedModelId(modelId) ? <SimulatedBadge /> : null}
          {isReplayModelId(modelId) ? <ReplayBadge /> : null}
          {isHumanModelId(modelId) ? <HumanBadge /> : null}
          {legacy ? <LegacyBadge /> : null}
        </div>
      ) : null}
    </div>
  );
}

/** The model id as plain text with its simulated or replay badge, for headings and chart lists. */
export function ModelLabel({
  modelId,
  outputMode,
  agent,
}: {
  modelId: string;
  outputMode?: string;
  agent?: string | null;
}) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span>
        {modelId}
        {outputMode ? ` · ${modeWithAgent(outputMode, agent)}` : ''}
      </span>
      {isSimulatedModelId(modelId) ? <SimulatedBadge /> : null}
      {isReplayModelId(modelId) ? <ReplayBadge /> : null}
      {isHumanModelId(modelId) ? <HumanBadge /> : null}
    </span>
  );
}

/**
 * The agent that drives a target's model, shown apart from the model: a third-party agent by name, our
 * own loop as `gitbench` in agent mode, and nothing for the answer modes (the model answers alone).
 */
export function AgentName({
  agent,
  outputMode,
  modelId,
}: {
  agent?: string | null;
  outputMode: string;
  modelId?: string;
}) {
  if (modelId && isHumanModelId(modelId))
    return (
      <span className="text-slate-400" title="A person worked the fixture, with no agent">
        {'\u2014'}
      </span>
    );
  if (outputMode !== 'agent')
    return (
      <span className="text-slate-400" title="The model answers once, with no agent">
        {'\u2014'}
      </span>
    );
  if (!agent) return <span title="GitBench's own agent loop">{OWN_AGENT}</span>;
  return (
    <span className="font-medium" title="A third-party coding agent, driving the model through the model gateway">
      {agent}
    </span>
  );
}

/**
 * An output mode with the third-party agent that ran it, where a table has one column or line per mode:
 * `agent · claude-code` beside `agent` (our own loop), so two agents on one model stay apart.
 */
export function modeWithAgent(outputMode: string, agent: string | null | undefined): string {
  return outputMode === 'agent' && agent ? `${outputMode} · ${agent}` : outputMode;
}
