import type { ComponentProps } from 'react';
import { AGENT_NAME, isMode } from '@gitbench/core';
import { ModelLabel } from '@/components/target-name';
import type { CompareSide } from '@/lib/queries/compare';

/** A side as the picker spells it: `model|mode`, or `model|agent|<agent>` for a third-party agent. */
export function sideValue(t: { modelId: string; outputMode: string; agent: string | null }): string {
  return t.agent ? `${t.modelId}|${t.outputMode}|${t.agent}` : `${t.modelId}|${t.outputMode}`;
}

/** Reads a side back from the URL; null for anything the picker would not have written. */
export function parseSide(v: unknown): CompareSide | null {
  if (typeof v !== 'string') return null;
  const parts = v.split('|');
  const agent = parts.length >= 3 && parts.at(-2) === 'agent' && AGENT_NAME.test(parts.at(-1)!) ? parts.pop()! : null;
  const mode = parts.pop();
  // Every mode, agent included, and in agent mode the third-party agent if one is named.
  if (parts.length === 0 || mode === undefined || !isMode(mode)) return null;
  return { modelId: parts.join('|'), outputMode: mode, agent };
}

/** A compared side named as every page names a target. */
export function SideLabel({
  side,
}: {
  side: Pick<ComponentProps<typeof ModelLabel>, 'modelId' | 'outputMode' | 'agent'>;
}) {
  return <ModelLabel modelId={side.modelId} outputMode={side.outputMode} agent={side.agent} />;
}
