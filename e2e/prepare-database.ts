import path from 'node:path';
import { applyMigrations } from '@gitbench/db';
import { resetDatabase } from './environment';

// Run before the web server starts (see playwright.config.ts: the server is up before global set-up
// runs, and its readiness check already reads the database): the tests' own database, empty and
// migrated at the start of every run.
const databaseUrl = process.env.DATABASE_URL!;
await resetDatabase(databaseUrl);
const report = await applyMigrations({
  databaseUrl,
  migrationsDir: path.resolve(import.meta.dirname, '../prisma/migrations'),
});
console.log(
  `e2e database ready: ${report.applied.length} migrations applied, ${report.alreadyApplied.length} already applied`,
);
