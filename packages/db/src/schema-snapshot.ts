import pg from 'pg';
import { quoteIdent } from './migrate';

/**
 * A schema-independent description of a Postgres schema: tables, columns, enums, indexes and
 * constraints, with the schema name removed. Two schemas with equal snapshots are structurally equal.
 * Used to prove that the committed migrations produce exactly what prisma/schema.prisma describes.
 */
export async function snapshotSchema(databaseUrl: string, schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const strip = (s: string) =>
      s
        .split(`${quoteIdent(schema)}.`)
        .join('')
        .split(`${schema}.`)
        .join('');
    const lines: string[] = [];
    const cols = await client.query(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length
         FROM information_schema.columns WHERE table_schema = $1 AND table_name <> '_prisma_migrations'`,
      [schema],
    );
    for (const c of cols.rows) {
      lines.push(
        `column ${c.table_name}.${c.column_name} ${c.data_type}/${c.udt_name}(${c.character_maximum_length ?? ''}) ` +
          `null=${c.is_nullable} default=${strip(String(c.column_default))}`,
      );
    }
    const enums = await client.query(
      `SELECT t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = $1 GROUP BY t.typname`,
      [schema],
    );
    for (const e of enums.rows) lines.push(`enum ${e.typname} ${e.labels}`);
    const idx = await client.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename <> '_prisma_migrations'`,
      [schema],
    );
    for (const i of idx.rows) lines.push(`index ${i.indexname} ${strip(i.indexdef)}`);
    const cons = await client.query(
      `SELECT c.conname, c.contype, pg_get_constraintdef(c.oid) AS def, r.relname
         FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = $1 AND r.relname <> '_prisma_migrations'`,
      [schema],
    );
    for (const k of cons.rows) lines.push(`constraint ${k.relname}.${k.conname} ${k.contype} ${strip(k.def)}`);
    return lines.sort();
  } finally {
    await client.end();
  }
}
