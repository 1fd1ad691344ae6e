/**
 * SQL statements built from template literals, as Prisma.sql builds them (the same semantics: nested
 * fragments flatten, every other value, arrays included, is one parameter), without loading Prisma's
 * runtime. The reads a `gitbench campaign status` makes need nothing else of Prisma, and its runtime
 * (one minified module that cannot be split) was about a sixth of that command's start-up.
 *
 * A statement runs through sqlRows or rawQuery; Prisma's own $queryRaw takes only its own Sql, so a
 * caller holding only a Prisma client passes `.text` and `.values` to $queryRawUnsafe.
 */
export class Sql {
  /** Makes the type nominal: a Prisma.Sql (which would not flatten here) is a type error, not a parameter. */
  declare private readonly nominal: never;
  readonly strings: readonly string[];
  readonly values: readonly unknown[];

  constructor(strings: readonly string[], values: readonly unknown[]) {
    if (strings.length !== values.length + 1)
      throw new TypeError(`a statement of ${strings.length} strings needs ${strings.length - 1} values`);
    const outStrings = [strings[0]!];
    const outValues: unknown[] = [];
    values.forEach((value, i) => {
      const next = strings[i + 1]!;
      if (value instanceof Sql) {
        outStrings[outStrings.length - 1] += value.strings[0]!;
        value.values.forEach((v, j) => {
          outValues.push(v);
          outStrings.push(value.strings[j + 1]!);
        });
        outStrings[outStrings.length - 1] += next;
      } else {
        outValues.push(value);
        outStrings.push(next);
      }
    });
    this.strings = outStrings;
    this.values = outValues;
  }

  /** The statement with PostgreSQL's placeholders ($1, $2, ...), as pg takes it. */
  get text(): string {
    return this.strings.reduce((text, s, i) => `${text}$${i}${s}`);
  }
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** Text written into the statement as it is: identifiers and SQL the code itself chose, never input. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

export const empty = raw('');

/** The fragments, separated by `separator` (raw text); at least one fragment, as Prisma.join requires. */
export function join(parts: readonly Sql[], separator = ','): Sql {
  if (parts.length === 0) throw new TypeError('join needs at least one fragment');
  return new Sql(['', ...Array<string>(parts.length - 1).fill(separator), ''], parts);
}
