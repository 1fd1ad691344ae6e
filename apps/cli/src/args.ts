/** A command's arguments as commander read them (program.ts): positionals, switches and valued flags. */
export interface ParsedArgs {
  positionals: string[];
  /** The last value of each flag (`true` for a switch). */
  flags: Map<string, string | true>;
  /** Every value of each valued flag, in order, for flags that may be repeated. */
  lists: Map<string, string[]>;
}

export class UsageError extends Error {}

export function intFlag(args: ParsedArgs, name: string, fallback: number, min = 1): number {
  const raw = args.flags.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${String(raw)}`);
  return n;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const raw = args.flags.get(name);
  if (raw === true) throw new UsageError(`--${name} needs a value`);
  return raw;
}

/** A valued flag restricted to a list; the message names the choices. */
export function choiceFlag<T extends string>(args: ParsedArgs, name: string, choices: readonly T[]): T | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw))
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got ${raw}`);
  return raw as T;
}

/**
 * Every value of a flag that may be repeated (`--tag a --tag b`), and unless `commas` is false also
 * comma-separated (`--tag a,b`); model ids keep their commas (`replay:a.json,b.json` is one model).
 */
export function listFlag(args: ParsedArgs, name: string, { commas = true } = {}): string[] {
  const raw = args.lists.get(name) ?? [];
  return (commas ? raw.flatMap((v) => v.split(',')) : raw).map((v) => v.trim()).filter(Boolean);
}
