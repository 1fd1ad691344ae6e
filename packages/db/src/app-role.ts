import pg from 'pg';
import { MigrationError, quoteIdent } from './migrate';

export interface AppRole {
  /** The role the web app and the workers log in as. */
  user: string;
  password: string;
  /** The schema migrations wrote (default public). */
  schema?: string;
}

/**
 * Creates (or updates) the role the app connects as, with rights on rows only: it reads and writes the
 * tables migrations made, and cannot create, alter, drop or truncate anything, nor write the migration
 * record (which it may read, for the status page). Run by the migration role, which owns the schema,
 * after migrating: default privileges give the app the same rights on tables later migrations create.
 * Needs CREATEROLE (or a superuser) the first time; the password is set on every run, so changing the
 * variable changes it.
 */
export async function grantAppRole(databaseUrl: string, role: AppRole): Promise<void> {
  const user = quoteIdent(role.user);
  const schema = quoteIdent(role.schema ?? 'public');
  if (role.password.length < 12)
    throw new MigrationError(`the app role's password (GITBENCH_APP_DB_PASSWORD) must be at least 12 characters`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const password = client.escapeLiteral(role.password);
    const { rows } = await client.query<{ db: string; me: string }>(
      'SELECT current_database() AS db, current_user AS me',
    );
    if (rows[0]!.me === role.user)
      throw new MigrationError(`the app role (${role.user}) cannot be the role that migrates`);
    const db = quoteIdent(rows[0]!.db);
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role.user]);
    const attributes = `LOGIN NOCREATEDB NOCREATEROLE PASSWORD ${password}`;
    // Only a superuser may even say NOSUPERUSER to an existing role: an existing one is checked instead.
    await client.query(
      exists.rowCount
        ? `ALTER ROLE ${user} ${attributes}`
        : `CREATE ROLE ${user} ${attributes} NOSUPERUSER NOREPLICATION NOBYPASSRLS`,
    );
    const { rows: attrs } = await client.query<{ rolsuper: boolean; rolreplication: boolean; rolbypassrls: boolean }>(
      'SELECT rolsuper, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = $1',
      [role.user],
    );
    if (attrs.some((a) => a.rolsuper || a.rolreplication || a.rolbypassrls))
      throw new MigrationError(
        `the app role ${role.user} exists as a superuser (or with ` +
          `replication or BYPASSRLS): give the app a role of its own`,
      );
    await client.query('BEGIN');
    // Before PostgreSQL 15 every role may create objects in public; the app role must not.
    await client.query(`REVOKE CREATE ON SCHEMA ${schema} FROM PUBLIC`);
    await client.query(`GRANT CONNECT ON DATABASE ${db} TO ${user}`);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${user}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${user}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${user}`);
    await client.query(`REVOKE INSERT, UPDATE, DELETE ON ${schema}."_prisma_migrations" FROM ${user}`);
    await client.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${user}`,
    );
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${user}`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err instanceof MigrationError
      ? err
      : new MigrationError(`setting up the app role ${role.user} failed: ${(err as Error).message}`);
  } finally {
    await client.end();
  }
}
