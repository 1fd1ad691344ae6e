import Link from 'next/link';
import { isHumanModelId, isReplayModelId, isSimulatedModelId } from '@gitbench/core';
import { modelHref } from './format';
import { HumanBadge, LegacyBadge, ReplayBadge, SimulatedBadge } from './status-badge';

/**
 * A target (model × effort × output mode) as every table names it: the model linked to its page, the
 * output mode and effort underneath, and a badge wherever its results are simulated, replayed, a person's or legacy.
 */
export function TargetName({
  modelId,
  outputMode,
  effort,
  filters,
  legacy = false,
  note,
}: {
  modelId: string;
  outputMode?: string;
  effort?: string | null;
  /** Kept on the link, so the model page shows the same selection. */
  filters?: Record<string, string | undefined>;
  legacy?: boolean;
  note?: string;
}) {
  const details = [outputMode, effort ? `effort ${effort}` : null, note].filter(Boolean).join(' · ');
  return (
    <div>
      <Link href={modelHref(modelId, filters)} className="font-medium text-indigo-700 hover:underline">
        {modelId}
      </Link>
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
export function ModelLabel({ modelId, outputMode }: { modelId: string; outputMode?: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span>
        {modelId}
        {outputMode ? ` · ${outputMode}` : ''}
      </span>
      {isSimulatedModelId(modelId) ? <SimulatedBadge /> : null}
      {isReplayModelId(modelId) ? <ReplayBadge /> : null}
      {isHumanModelId(modelId) ? <HumanBadge /> : null}
    </span>
  );
}
