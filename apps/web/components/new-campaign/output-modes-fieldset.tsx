'use client';

import { MODES } from '@gitbench/core/mode';
import { FieldError, Fieldset, inputClass, toggle } from './fields';
import { AgentsChoice } from './agents-choice';
import type { AgentOption, CampaignDraft, DraftUpdate } from './draft';

/** The output modes, and for agent mode the agents that drive the models, the tool set and the turn limit. */
export function OutputModesFieldset({
  uid,
  draft,
  update,
  errors,
  agentErrors,
  agents,
  agentsErrors,
}: {
  uid: string;
  draft: Pick<CampaignDraft, 'outputModes' | 'toolSet' | 'maxTurns' | 'agents'>;
  update: DraftUpdate;
  errors: string[];
  agentErrors: string[];
  agents: AgentOption[];
  agentsErrors: string[];
}) {
  const { outputModes } = draft;
  return (
    <Fieldset legend="Output modes" error={<FieldError id={`${uid}-modes-err`} errors={errors} />}>
      <div className="flex gap-4 text-sm">
        {MODES.map((m) => (
          <label key={m} className="flex items-center gap-2">
            <input
              type="checkbox"
              className="h-4 w-4"
              checked={outputModes.includes(m)}
              onChange={() => update({ outputModes: toggle(outputModes, m) })}
            />
            {m}
          </label>
        ))}
      </div>
      {outputModes.includes('agent') ? (
        <div className="mt-2 flex gap-4 text-sm">
          <label className="block" htmlFor={`${uid}-toolset`}>
            Agent tool set
            <input
              id={`${uid}-toolset`}
              className={inputClass}
              value={draft.toolSet}
              onChange={(e) => update({ toolSet: e.target.value })}
              placeholder="default, bash, editor, bash+editor"
            />
          </label>
          <label className="block" htmlFor={`${uid}-turns`}>
            Max turns
            <input
              id={`${uid}-turns`}
              type="number"
              min={1}
              max={500}
              className={inputClass}
              value={draft.maxTurns}
              onChange={(e) => update({ maxTurns: e.target.value })}
              placeholder="the suite's (30)"
            />
          </label>
          <FieldError id={`${uid}-agent-err`} errors={agentErrors} />
        </div>
      ) : null}
      {outputModes.includes('agent') ? (
        <AgentsChoice
          uid={uid}
          agents={agents}
          chosen={draft.agents}
          onChange={(next) => update({ agents: next })}
          errors={agentsErrors}
        />
      ) : null}
    </Fieldset>
  );
}
