import { stringFlag, type ParsedArgs } from './args';

/** The agent section's flags, shared by `gitbench run --mode agent` and `gitbench campaign create --mode agent`. */
export const AGENT_FLAGS = ['tool-set', 'protocol', 'max-turns', 'command-timeout-ms'] as const;

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
    Object.entries({ maxTurns: numeric(stringFlag(args, 'max-turns')), commandTimeoutMs: numeric(stringFlag(args, 'command-timeout-ms')) }).filter(([, v]) => v !== undefined),
  );
  const agent = Object.fromEntries(
    Object.entries({ toolSet: stringFlag(args, 'tool-set'), protocol: stringFlag(args, 'protocol'), limits: Object.keys(limits).length > 0 ? limits : undefined }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return Object.keys(agent).length > 0 ? agent : undefined;
}
