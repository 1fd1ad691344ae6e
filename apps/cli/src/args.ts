/** A small argv reader: positionals, `--flag`, `--key value` and `--key=value`. */
export interface ParsedArgs {
  positionals: string[];
  /** The last value of each flag (`true` for a switch). */
  flags: Map<string, string | true>;
  /** Every value of each valued flag, in order, for flags that may be repeated. */
  lists: Map<string, string[]>;
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], valued: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const set = (name: string, value: string) => {
    flags.set(name, value);
    lists.set(name, [...(lists.get(name) ?? []), value]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq > 0) set(name, arg.slice(eq + 1));
    else if (valued.includes(name)) {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      set(name, value);
    } else flags.set(name, true);
  }
  return { positionals, flags, lists };
}

export function intFlag(args: ParsedArgs, name: string, fallback: number, min = 1): number {
  const raw = args.flags.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${String(raw)}`);
  return n;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const raw = args.flags.get(name);
  if (raw === true) throw new UsageError(`--${name} needs a value`);
  return raw;
}

/** Rejects flags the command does not know, so a typo is not silently ignored. */
export function onlyFlags(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.flags.keys()) if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
}

/** A valued flag restricted to a list; the message names the choices. */
export function choiceFlag<T extends string>(args: ParsedArgs, name: string, choices: readonly T[]): T | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got ${raw}`);
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
