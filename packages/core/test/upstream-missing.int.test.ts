import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { UPSTREAM_ROOT } from './fixtures/upstream-data';

/**
 * The tests that compare with upstream must fail, never skip, when what they compare with is
 * missing: the sample data (fixtures and results), or upstream's harness that the scorer comparison
 * runs. Each case runs those test files in a child vitest with the data taken away.
 */
const repoRoot = join(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'gitbench-no-upstream-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function vitest(files: string[], upstreamDir: string): { status: number | null; out: string } {
  const run = spawnSync(join(repoRoot, 'node_modules/.bin/vitest'), ['run', ...files], {
    cwd: repoRoot,
    env: { ...process.env, GITBENCH_UPSTREAM_DIR: upstreamDir },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, out: run.stdout + run.stderr };
}

it('fail when the upstream sample data is missing', { timeout: 150_000 }, () => {
  const { status, out } = vitest(
    ['packages/core/test/scoring/upstream-agreement.test.ts', 'packages/core/test/fixtures/load-fixtures.test.ts'],
    join(scratch, 'nowhere'),
  );
  expect(status).not.toBe(0);
  expect(out).toMatch(/upstream sample data missing/);
  expect(out).toMatch(/2 failed/);
  expect(out).not.toMatch(/skipped/);
});

it("fail when upstream's harness is missing", { timeout: 150_000 }, () => {
  const withoutHarness = join(scratch, 'no-harness');
  for (const part of ['fixtures', 'results'])
    cpSync(join(UPSTREAM_ROOT, part), join(withoutHarness, part), { recursive: true });
  const { status, out } = vitest(['packages/engine/test/upstream-scorer.int.test.ts'], withoutHarness);
  expect(status).not.toBe(0);
  expect(out).toMatch(/upstream's harness is missing/);
  expect(out).not.toMatch(/skipped/);
});
