/**
 * The new-campaign form's state as one value, and the request body it stands for. Kept apart from the
 * components so each fieldset edits its own slice and the body is built in one place.
 */
import { allowedModes, type SuiteModes } from '@gitbench/core/mode';

export interface Profile {
  name: string;
  provider: string;
  models: string[];
  note?: string;
}

export interface Suite {
  dir: string;
  version: string;
  domains: string[];
  difficulties: string[];
  tags: string[];
  /** The modes its tasks are built for (suite.yaml's `modes`); absent, every mode. */
  modes?: SuiteModes;
  /** An agent attempt's turn limit when the form gives none: suite.yaml's agent.max_turns, else the built-in one. */
  agentMaxTurns?: { turns: number; fromSuite: boolean };
}

/** An agent the form offers for agent mode; GitBench's own loop has no version of its own. */
export interface AgentOption {
  name: string;
  displayName: string;
  version: string | null;
  protocol: string | null;
}

/** GitBench's own agent loop (core's OWN_AGENT): chosen unless the person unticks it. */
export const OWN_AGENT = 'gitbench';

/** The server's validation answer: messages for the whole form, and per dotted field path. */
export interface Errors {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
}

export const NO_ERRORS: Errors = { formErrors: [], fieldErrors: {} };

/** Every field as typed (numbers stay text until the body is built, so a half-typed value is kept). */
export interface CampaignDraft {
  name: string;
  /** model id -> reasoning effort ('' = the model's default). */
  models: Record<string, string>;
  /** Further model ids, space or comma separated. */
  extraModels: string;
  outputModes: string[];
  /**
   * Agent mode: the tool set (`default`: the fixture's own) and the turn limit; empty leaves the turns, like
   * the other limits, to the suite's suite.yaml, else the built-in default (a limit given here wins).
   */
  toolSet: string;
  maxTurns: string;
  /** Agent mode: the agents that drive the models (our own loop and third-party agents by name). */
  agents: string[];
  suiteDir: string;
  domains: string[];
  difficulties: string[];
  tags: string[];
  trials: string;
  seed: string;
  judgeProfile: string;
}

export const INITIAL_DRAFT: CampaignDraft = {
  name: '',
  models: {},
  extraModels: '',
  outputModes: ['text'],
  toolSet: 'default',
  maxTurns: '',
  agents: [OWN_AGENT],
  suiteDir: '',
  domains: [],
  difficulties: [],
  tags: [],
  trials: '3',
  seed: '0',
  judgeProfile: '',
};

export type DraftUpdate = (patch: Partial<CampaignDraft>) => void;

/**
 * The draft's change when `suite` is chosen: its facets cleared, and its output modes kept to those the suite's
 * tasks are built for, else the first of those, so that the form does not hold a campaign the server refuses.
 */
export function chooseSuite(draft: Pick<CampaignDraft, 'outputModes'>, suite: Suite): Partial<CampaignDraft> {
  const allowed: readonly string[] = allowedModes(suite.modes);
  const kept = draft.outputModes.filter((m) => allowed.includes(m));
  const outputModes = kept.length > 0 || draft.outputModes.length === 0 ? kept : allowed.slice(0, 1);
  return { suiteDir: suite.dir, domains: [], tags: [], outputModes };
}

/** The body POST /api/campaigns (and its estimate) takes for this draft. */
export function draftBody(d: CampaignDraft) {
  const chosen = Object.entries(d.models).map(([m, effort]) => (effort ? `${m}#${effort}` : m));
  const extra = d.extraModels
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    name: d.name.trim(),
    models: [...chosen, ...extra],
    outputModes: d.outputModes,
    fixtures: {
      suiteDir: d.suiteDir || 'fixtures',
      domains: d.domains,
      difficulties: d.difficulties,
      tags: d.tags,
      ids: [] as string[],
    },
    trials: Number(d.trials),
    seed: Number(d.seed),
    ...(d.judgeProfile.trim() ? { judgeProfile: d.judgeProfile.trim() } : {}),
    ...(d.outputModes.includes('agent') ? { agents: d.agents, agent: agentSection(d) } : {}),
  };
}

function agentSection(d: CampaignDraft) {
  const toolSet = d.toolSet.trim() || 'default';
  return d.maxTurns.trim() === '' ? { toolSet } : { toolSet, limits: { maxTurns: Number(d.maxTurns) } };
}

export type CampaignBody = ReturnType<typeof draftBody>;

/** The messages of a field and of everything under it (`models` takes `models.2`). */
export function errorsUnder(errors: Errors, prefix: string): string[] {
  return Object.entries(errors.fieldErrors)
    .filter(([k]) => k === prefix || k.startsWith(`${prefix}.`))
    .flatMap(([, v]) => v);
}

export function withoutFieldError(errors: Errors, path: string): Errors {
  return { ...errors, fieldErrors: Object.fromEntries(Object.entries(errors.fieldErrors).filter(([k]) => k !== path)) };
}
