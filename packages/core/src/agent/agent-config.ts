import { z } from 'zod';

/**
 * How an Agent's tool calls travel. `native`: the endpoint's tool calling. `text`: exactly one fenced
 * bash block per turn, for endpoints that refuse tools. `auto`: native until the endpoint says tools
 * are unsupported, then text; the mode actually used is recorded on the Trajectory.
 */
export const AGENT_PROTOCOLS = ['auto', 'native', 'text'] as const;
export type AgentProtocol = (typeof AGENT_PROTOCOLS)[number];

/** The name that means "whatever the fixture's own agent section or family names" (see defaultToolSet). */
export const DEFAULT_TOOL_SET = 'default';

/**
 * Where an Agent stops. Every limit, when hit, ends the loop and the repository is scored anyway:
 * a limit says how far the agent got, it does not excuse it.
 */
export const agentLimitsSchema = z
  .object({
    maxTurns: z
      .number()
      .int('Turns must be a whole number.')
      .min(1, 'Allow at least 1 turn.')
      .max(500, 'Allow at most 500 turns.')
      .default(30),
    /** Input plus output tokens over every model call of the attempt. */
    maxTokens: z.number().int().min(1_000, 'Allow at least 1,000 tokens.').max(50_000_000).default(500_000),
    /** USD over every model call; null means no cost limit (built-in agents cost nothing). */
    maxCostUsd: z.number().positive('The cost limit must be positive.').max(10_000).nullable().default(null),
    /** Wall-clock time of the whole loop, model and tools. */
    maxWallMs: z
      .number()
      .int()
      .min(1_000)
      .max(6 * 3_600_000)
      .default(600_000),
    /** Per tool command run in the sandbox; the command's process group is killed after it. */
    commandTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    /** Bytes of one tool result the model sees (head and tail kept); the full size is recorded. */
    maxToolOutputBytes: z.number().int().min(256).max(1_048_576).default(16_384),
  })
  .strict();
export type AgentLimits = z.output<typeof agentLimitsSchema>;

/** The limits a suite may set as the defaults of its agent attempts (suite.yaml's `agent` section). */
export type SuiteAgentLimits = Partial<Pick<AgentLimits, 'maxTurns' | 'maxWallMs' | 'commandTimeoutMs'>>;

/**
 * The limits an attempt runs under: each one given explicitly (a flag, a campaign configuration's
 * `agent.limits`) wins, then the suite's own default, then the built-in default. `given` is the agent
 * section as the user spelled it, before the schema filled in defaults.
 */
export function withSuiteAgentLimits(
  config: AgentConfig,
  given: unknown,
  suite: SuiteAgentLimits | undefined,
): AgentConfig {
  const limits = (given as { limits?: unknown } | null | undefined)?.limits;
  const explicit = new Set(limits !== null && typeof limits === 'object' ? Object.keys(limits) : []);
  const fromSuite = Object.entries(suite ?? {}).filter(([key, value]) => value !== undefined && !explicit.has(key));
  return fromSuite.length === 0
    ? config
    : { ...config, limits: { ...config.limits, ...Object.fromEntries(fromSuite) } };
}

export const agentConfigSchema = z
  .object({
    /** A registered tool set name, or `default` for the fixture's own. */
    toolSet: z.string().trim().min(1, 'Name a tool set.').default(DEFAULT_TOOL_SET),
    protocol: z.enum(AGENT_PROTOCOLS, { error: `Use one of ${AGENT_PROTOCOLS.join(', ')}.` }).default('auto'),
    limits: agentLimitsSchema.default(agentLimitsSchema.parse({})),
  })
  .strict();
export type AgentConfigInput = z.input<typeof agentConfigSchema>;
export type AgentConfig = z.output<typeof agentConfigSchema>;

/**
 * GitBench's own agent loop, named among a campaign's agents beside the third-party ones (claude-code,
 * codex, ...). A target whose agent is this one is stored with no agent (null): every campaign before
 * agents could be chosen ran this loop.
 */
export const OWN_AGENT = 'gitbench';

/** An agent's name as the agents package spells them: lower case, digits and dashes. */
export const AGENT_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/** The stored agent of a target (null: our own loop) from the name a campaign lists. */
export function storedAgent(name: string): string | null {
  return name === OWN_AGENT ? null : name;
}

export const DEFAULT_AGENT_CONFIG: AgentConfig = agentConfigSchema.parse({});
