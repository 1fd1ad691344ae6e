import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitbench, jsonOf, UPSTREAM } from './cli-process';

interface SelfcheckReport {
  total: number;
  passed: number;
  failed: number;
  errors: number;
  stableHashes: number;
  invalidFiles: unknown[];
  fixtures: { benchmark: string; id: string; status: string; inputHashes: string[] }[];
}

if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-selfcheck-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('gitbench selfcheck --id', () => {
  it(
    'checks only the fixtures named, twice each, and refuses an id the suite lacks',
    { timeout: 300_000 },
    async () => {
      // Two of upstream's domains, plus a file that does not load: a narrowed check leaves it to the full one.
      const suite = path.join(tmp, 'suite');
      for (const domain of ['git_grep', 'git_clean']) {
        mkdirSync(path.join(suite, domain), { recursive: true });
        for (const f of ['f001', 'f002'])
          writeFileSync(
            path.join(suite, domain, `${f}.yaml`),
            readFileSync(path.join(UPSTREAM, 'fixtures', domain, `${f}.yaml`)),
          );
      }
      writeFileSync(path.join(suite, 'git_clean', 'f003.yaml'), 'id: f003\nnot: [a fixture\n');

      const r = await gitbench([
        'selfcheck',
        suite,
        '--id',
        'git_grep/f002',
        '--id',
        'git_clean/f001',
        '--runs',
        '2',
        '--json',
      ]);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const report = jsonOf<SelfcheckReport>(r);
      expect(report.fixtures.map((f) => [`${f.benchmark}/${f.id}`, f.status, f.inputHashes.length]).sort()).toEqual([
        ['git_clean/f001', 'passed', 2],
        ['git_grep/f002', 'passed', 2],
      ]);
      expect(report).toMatchObject({ total: 2, passed: 2, failed: 0, errors: 0, stableHashes: 2, invalidFiles: [] });
      expect(r.stderr).toContain('1 file(s) of');

      const whole = await gitbench(['selfcheck', suite, '--domain', 'git_grep']);
      expect(whole.code).toBe(0);
      expect(whole.stdout).toMatch(/2 fixture\(s\), 1 run\(s\) each: 2 passed/);

      const typo = await gitbench(['selfcheck', suite, '--id', 'git_grep/f001,git_grep/f999']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain(`--id: ${suite} has no fixture git_grep/f999`);
      expect(typo.stdout).toBe('');
    },
  );
});
