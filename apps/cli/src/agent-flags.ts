import { stringFlag, type ParsedArgs } from './args';

/** The agent section's flags, shared by `gitbench run --mode agent` and `gitbench campaign create --mode agent`. */
export const AGENT_FLAGS = ['tool-set', 'protocol', 'max-turns', 'max-wall-ms', 'command-timeout-ms'] as const;

/** The same flags as `--help` describes them. */
export const AGENT_FLAG_HELP = [
  [
    '--tool-set <name>',
    "with --mode agent: bash, editor, bash+editor, ggb-mcr, ggb-ir, ggb-icc, or default (the fixture family's own)",
  ],
  [
    '--protocol <protocol>',
    'with --mode agent: auto (default), native tool calls or text (one fenced bash block per turn)',
  ],
  [
    '--max-turns <n>',
    "with --mode agent: model turns before the loop stops (default: the suite.yaml's agent.max_turns, else 30)",
  ],
  [
    '--max-wall-ms <n>',
    "with --mode agent: wall-clock limit of the whole loop (default: the suite.yaml's " +
      'agent.max_wall_ms, else 600000; a person at --model manual needs more)',
  ],
  [
    '--command-timeout-ms <n>',
    'with --mode agent: limit of one command in the sandbox (default: the ' +
      "suite.yaml's agent.command_timeout_ms, else 30000); a flag wins over suite.yaml",
  ],
] as const;

/**
 * Numbers go to the schema as numbers when they look like one and as given otherwise, so `--trials x`
 * gets the API's own message ("Trials must be a whole number.") rather than one of the CLI's.
 */
export function numeric(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
}

/** The agent section as the flags spell it (only what was given), for the configuration schema to check. */
export function agentSectionFromFlags(args: ParsedArgs): Record<string, unknown> | undefined {
  const limits = Object.fromEntries(
    Object.entries({
      maxTurns: numeric(stringFlag(args, 'max-turns')),
      maxWallMs: numeric(stringFlag(args, 'max-wall-ms')),
      commandTimeoutMs: numeric(stringFlag(args, 'command-timeout-ms')),
    }).filter(([, v]) => v !== undefined),
  );
  const agent = Object.fromEntries(
    Object.entries({
      toolSet: stringFlag(args, 'tool-set'),
      protocol: stringFlag(args, 'protocol'),
      limits: Object.keys(limits).length > 0 ? limits : undefined,
    }).filter(([, v]) => v !== undefined),
  );
  return Object.keys(agent).length > 0 ? agent : undefined;
}
