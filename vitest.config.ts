import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Two projects: `unit` (pure logic, milliseconds, no services) and `integration` (*.int.test.ts,
// real Postgres, Redis and Docker). Each integration file uses its own schema and queue name.

/**
 * Rules of every run, set in each project (projects do not inherit them); scripts/test runs tiny suites under them too.
 */
export const RUN_RULES = {
  // A committed .only would quietly drop every other test of its file: it fails the run instead.
  allowOnly: false,
  // A missing snapshot file fails instead of being written anew (as under CI=true, which test.sh does not set).
  // `vitest run -u` writes snapshots on purpose.
  update: 'none',
} as const;

export default defineConfig({
  test: {
    ...RUN_RULES,
    projects: [
      {
        // The web app's components render in unit tests as Next compiles them: JSX to React's automatic
        // runtime (its tsconfig keeps JSX for Next) and `@/` at the app's root.
        oxc: { jsx: { runtime: 'automatic' } },
        resolve: { alias: [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'apps/web')}/` }] },
        test: {
          ...RUN_RULES,
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          // A few unit tests read the whole fixture tree (build keys, the suite loader): 2-6 s on two
          // loaded cores, over vitest's 5 s default. No test asserts a duration, so a wider bound loses nothing.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          ...RUN_RULES,
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['packages/*/test/**/*.int.test.ts', 'apps/*/test/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: a few files at once keeps Docker and Postgres busy without starving them.
          maxWorkers: 2,
        },
      },
    ],
  },
});
