import { describe, expect, it } from 'vitest';
import { Prisma } from '../src/generated/prisma/client';
import { empty, join, raw, sql } from '../src/sql';

/** The same statement built both ways: db's sql must give pg what Prisma.sql gives it. */
function both(build: (s: { sql: typeof sql; raw: typeof raw; join: typeof join; empty: typeof empty }) => unknown) {
  const ours = build({ sql, raw, join, empty }) as { text: string; values: readonly unknown[] };
  const prisma = build({
    sql: Prisma.sql as unknown as typeof sql,
    raw: Prisma.raw as unknown as typeof raw,
    join: Prisma.join as unknown as typeof join,
    empty: Prisma.empty as unknown as typeof empty,
  }) as Prisma.Sql;
  return { ours: { text: ours.text, values: ours.values }, prisma: { text: prisma.text, values: prisma.values } };
}

describe("db's sql, Prisma.sql's semantics without Prisma's runtime", () => {
  it('numbers parameters across nested fragments, joins and raw text as Prisma.sql does', () => {
    const { ours, prisma } = both(({ sql, raw, join, empty }) => {
      const where = sql`AND a."x" = ${'x'} ${empty} ${sql`AND a."ids" = ANY(${['a', 'b']}::text[])`}`;
      const cols = join([raw('"a"'), raw('"b"'), sql`${7}::int AS c`], ', ');
      return sql`SELECT ${cols} FROM t a WHERE a."id" = ${1} ${where}
        AND ${join([sql`p = ${true}`, sql`q = ${null}`], ' AND ')}`;
    });
    expect(ours).toEqual(prisma);
    expect(ours.values).toEqual([7, 1, 'x', ['a', 'b'], true, null]);
    expect(ours.text).toContain('a."id" = $2 AND a."x" = $3');
  });

  it('a fragment of raw text alone has no parameters; join needs a fragment', () => {
    expect(raw('"CampaignStats"').text).toBe('"CampaignStats"');
    expect(empty.text).toBe('');
    expect(() => join([])).toThrow(/at least one/);
  });
});
