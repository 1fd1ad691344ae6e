'use client';

import { allowedModes, MODES, type SuiteModes } from '@gitbench/core/mode';
import { FieldError, Fieldset, inputClass, toggle } from './fields';
import { AgentsChoice } from './agents-choice';
import type { AgentOption, CampaignDraft, DraftUpdate } from './draft';

/**
 * The output modes, and for agent mode the agents that drive the models, the tool set and the turn limit. A mode
 * the chosen suite's tasks are not built for cannot be chosen, and a note says why, so that the person does not
 * meet the server's refusal.
 */
export function OutputModesFieldset({
  uid,
  draft,
  suiteModes,
  suiteMaxTurns,
  update,
  errors,
  agentErrors,
  agents,
  agentsErrors,
}: {
  uid: string;
  draft: Pick<CampaignDraft, 'outputModes' | 'toolSet' | 'maxTurns' | 'agents'>;
  /** The chosen suite's modes (suite.yaml's `modes`); absent, every mode. */
  suiteModes: SuiteModes | undefined;
  /** What an empty "Max turns" means for the chosen suite (absent while the suites load). */
  suiteMaxTurns?: { turns: number; fromSuite: boolean } | undefined;
  update: DraftUpdate;
  errors: string[];
  agentErrors: string[];
  agents: AgentOption[];
  agentsErrors: string[];
}) {
  const { outputModes } = draft;
  const allowed = allowedModes(suiteModes);
  const noteId = `${uid}-modes-note`;
  return (
    <Fieldset legend="Output modes" error={<FieldError id={`${uid}-modes-err`} errors={errors} />}>
      <div className="flex gap-4 text-sm">
        {MODES.map((m) => {
          const built = allowed.includes(m);
          const chosen = outputModes.includes(m);
          // One the draft still holds (a stale draft) stays enabled, so that it can be unticked.
          return (
            <label key={m} className={`flex items-center gap-2 ${built ? '' : 'text-slate-500'}`}>
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={chosen}
                disabled={!built && !chosen}
                aria-describedby={built ? undefined : noteId}
                onChange={() => update({ outputModes: toggle(outputModes, m) })}
              />
              {m}
            </label>
          );
        })}
      </div>
      {suiteModes ? (
        <p id={noteId} className="mt-1 text-xs text-slate-500" data-testid="suite-modes-note">
          This suite&apos;s tasks are built for {suiteModes.allowed.join(' and ')} only (modes in {suiteModes.file}).
        </p>
      ) : null}
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
              placeholder={maxTurnsPlaceholder(suiteMaxTurns)}
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

/** What an empty "Max turns" box stands for: the suite's own limit, or the built-in default, with its figure. */
export function maxTurnsPlaceholder(limit: { turns: number; fromSuite: boolean } | undefined): string {
  if (!limit) return "the suite's";
  return limit.fromSuite ? `the suite's (${limit.turns})` : `the default (${limit.turns})`;
}
