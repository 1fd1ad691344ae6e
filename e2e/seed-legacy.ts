import path from 'node:path';
import { defaultLegacyResultsDir, importLegacyResults } from '../scripts/lib/legacy-results';

// Run by global-setup as `node --import tsx e2e/seed-legacy.ts`, so the workspace packages load as the worker's do.
const root = path.resolve(import.meta.dirname, '..');
const dir = defaultLegacyResultsDir(root);
const ids = await importLegacyResults(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench', dir);
if (ids === null)
  throw new Error(`the browser tests browse the upstream results as legacy campaigns, but ${dir} does not exist`);
console.log(`legacy campaigns ready: ${ids.join(', ')}`);
