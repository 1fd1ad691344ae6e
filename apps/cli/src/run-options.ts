import {
  agentConfigSchema,
  ANSWER_MODES,
  DEFAULT_TOOL_SET,
  findToolSet,
  parseModelId,
  toolSetNames,
  type AgentConfig,
  type AnswerMode,
  type Mode,
} from '@gitbench/core';
import { AGENT_ADAPTERS } from '@gitbench/agents';
import { PROVIDER_KINDS, type TargetSpec } from '@gitbench/providers';
import { AGENT_FLAGS, agentSectionFromFlags } from './agent-flags';
import { choiceFlag, intFlag, stringFlag, UsageError, type ParsedArgs } from './args';
import { selectionFromArgs, type SelectionFlags } from './fixture-selection';

export interface RunOptions {
  dir: string;
  /** What the provider registry resolves: any model id with its effort, plus the optional overrides. */
  target: TargetSpec;
  judgeProfile?: string;
  outputModes: AnswerMode[];
  /** `--mode agent`: the agent loop with this configuration instead of single answers. */
  agent?: AgentConfig;
  /** `--agent <name>` (with --mode agent): a third-party agent instead of our own loop. */
  thirdPartyAgent?: string;
  trials: number;
  selection: SelectionFlags;
  workers: number;
  jsonOutput?: string;
  json: boolean;
}

function modesOf(raw: string): AnswerMode[] {
  if (raw === 'both') return [...ANSWER_MODES];
  if (raw === 'text' || raw === 'json_schema') return [raw];
  throw new UsageError(`--output-mode must be text, json_schema or both, got ${raw}`);
}

function baseUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw;
  } catch {
    // reported below
  }
  throw new UsageError(`--base-url must be an http(s) URL, got ${raw}`);
}

/** `--mode agent` and its options, checked like the campaign configuration's agent section. */
function agentOptions(args: ParsedArgs): AgentConfig | undefined {
  const mode = stringFlag(args, 'mode');
  const agentFlags = AGENT_FLAGS.filter((f) => stringFlag(args, f) !== undefined);
  if (mode !== 'agent') {
    if (agentFlags.length > 0) throw new UsageError(`--${agentFlags[0]} goes with --mode agent`);
    if (mode !== undefined && !['text', 'json_schema', 'both'].includes(mode))
      throw new UsageError(`--mode must be text, json_schema, both or agent, got ${mode}`);
    return undefined;
  }
  const parsed = agentConfigSchema.safeParse(agentSectionFromFlags(args) ?? {});
  if (!parsed.success)
    throw new UsageError(
      `--mode agent: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const toolSet = parsed.data.toolSet;
  if (toolSet !== DEFAULT_TOOL_SET && !findToolSet(toolSet))
    throw new UsageError(`--tool-set: unknown tool set '${toolSet}' (${toolSetNames().join(', ')}, or default)`);
  return parsed.data;
}

/** `--agent <name>`: one of the adapted agents, with --mode agent; its own loop replaces our tool set and protocol. */
function thirdPartyAgentOf(args: ParsedArgs, agent: AgentConfig | undefined): string | undefined {
  const name = stringFlag(args, 'agent');
  if (name === undefined) return undefined;
  if (!agent) throw new UsageError('--agent goes with --mode agent');
  if (!AGENT_ADAPTERS.some((a) => a.name === name))
    throw new UsageError(
      `--agent: unknown agent '${name}' (${AGENT_ADAPTERS.map((a) => a.name).join(', ')}; gitbench agents lists them)`,
    );
  for (const flag of ['tool-set', 'protocol']) {
    if (stringFlag(args, flag) !== undefined)
      throw new UsageError(`--${flag} does not apply to --agent ${name}: the agent brings its own tools and protocol`);
  }
  return name;
}

/**
 * `gitbench run`'s flags, checked before anything starts: a bad model id, provider or URL is a usage
 * error naming the flag. Whether a profile serves the model is the registry's question, asked next.
 */
export function parseRunArgs(args: ParsedArgs): RunOptions & { sandbox: string | undefined } {
  const dir = args.positionals[0]!;
  const model = stringFlag(args, 'model');
  if (!model) throw new UsageError('--model <id> is required (see gitbench run --help)');
  try {
    parseModelId(model);
  } catch (err) {
    throw new UsageError(`--model: ${(err as Error).message}`);
  }
  const provider = choiceFlag(args, 'provider', PROVIDER_KINDS);
  const baseUrl = baseUrlOf(stringFlag(args, 'base-url'));
  const profile = stringFlag(args, 'profile');
  const judgeProfile = stringFlag(args, 'judge-profile');
  const jsonOutput = stringFlag(args, 'json-output');
  const agent = agentOptions(args);
  const thirdPartyAgent = thirdPartyAgentOf(args, agent);
  const target: TargetSpec = {
    model,
    ...(provider ? { provider } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(profile ? { profile } : {}),
  };
  return {
    dir,
    target,
    ...(judgeProfile ? { judgeProfile } : {}),
    outputModes: modesOf(stringFlag(args, 'output-mode') ?? (agent ? 'text' : (stringFlag(args, 'mode') ?? 'text'))),
    ...(agent ? { agent } : {}),
    ...(thirdPartyAgent ? { thirdPartyAgent } : {}),
    trials: intFlag(args, 'trials', 1),
    selection: selectionFromArgs(args),
    workers: intFlag(args, 'workers', 2),
    ...(jsonOutput ? { jsonOutput } : {}),
    json: args.flags.has('json'),
    sandbox: stringFlag(args, 'sandbox'),
  };
}

/** The modes a run asks for: the agent mode, or its single-answer output modes. */
export function runModes(opts: Pick<RunOptions, 'agent' | 'outputModes'>): readonly Mode[] {
  return opts.agent ? ['agent'] : opts.outputModes;
}

/** The flag that chose the run's modes, as typed, for a message about them (`--mode text (the default)`). */
export function modeFlag(args: ParsedArgs): string {
  const mode = stringFlag(args, 'mode');
  const outputMode = stringFlag(args, 'output-mode');
  if (mode !== 'agent' && outputMode !== undefined) return `--output-mode ${outputMode}`;
  return mode === undefined ? '--mode text (the default)' : `--mode ${mode}`;
}

/** One file per output mode and trial, as upstream writes one envelope per run. */
export function outputPath(base: string, mode: AnswerMode, trial: number, modes: number, trials: number): string {
  const parts = [modes > 1 ? mode : '', trials > 1 ? `trial${trial}` : ''].filter(Boolean);
  if (parts.length === 0) return base;
  const dot = base.endsWith('.json') ? base.length - 5 : base.length;
  return `${base.slice(0, dot)}-${parts.join('-')}${base.slice(dot)}`;
}
