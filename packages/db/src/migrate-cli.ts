import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { grantAppRole } from './app-role';
import { applyMigrations, MigrationError } from './migrate';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL is not set (e.g. postgresql://postgres@127.0.0.1:5432/gitbench)');
  process.exit(2);
}
try {
  const report = await applyMigrations({ databaseUrl, migrationsDir: path.join(root, 'prisma/migrations') });
  console.log(`migrations: ${report.applied.length} applied, ${report.alreadyApplied.length} already applied`);
  // A deployment whose app connects as a role of its own (compose does): that role gets rows, not the schema.
  const appUser = process.env.GITBENCH_APP_DB_USER;
  if (appUser) {
    await grantAppRole(databaseUrl, { user: appUser, password: process.env.GITBENCH_APP_DB_PASSWORD ?? '' });
    console.log(`app role ${appUser}: may read and write rows, not change the schema`);
  }
} catch (err) {
  console.error(err instanceof MigrationError ? `migration error: ${err.message}` : err);
  process.exit(1);
}
