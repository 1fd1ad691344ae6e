import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '@gitbench/test-support';
import { gitbench, jsonOf, ROOT, UPSTREAM, type CliResult } from './cli-process';

/**
 * Right after `npm ci` there is no generated Prisma client. The commands that need only Docker (or
 * nothing) must work then: each runs here in a process that refuses to load the database client.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const HOOK = path.join(import.meta.dirname, 'support/without-prisma-client.mjs');
const SUITE = path.join(UPSTREAM, 'fixtures');

function gitbenchWithoutClient(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // From the sources: the hook sees each module as it loads. The compiled CLI has the client bundled
    // in (it exists here) but splits its chunks at the same dynamic imports, so a command that loads
    // no database module from source loads no database chunk compiled.
    const proc = spawn(process.execPath, ['--import', HOOK, path.join(ROOT, 'apps/cli/bin/gitbench.js'), ...args], {
      cwd: ROOT,
      env: { ...env, GITBENCH_CLI_FROM_SOURCE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('gitbench without a generated database client', () => {
  it('refuses the client in this harness (so the checks below mean something)', { timeout: 120_000 }, async () => {
    const r = await gitbenchWithoutClient(['campaign', 'export', 'cmp_x']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the database client was loaded');
  });

  it('validate, list, selfcheck and run work', { timeout: 600_000 }, async () => {
    const one = path.join(SUITE, 'git_grep');
    const runs: [string[], RegExp][] = [
      [['validate', SUITE], /68 valid fixture\(s\)/],
      [['list', SUITE], /68/],
      [['selfcheck', one], /4 passed, 0 failed/],
      [['run', one, '--model', 'oracle', '--output-mode', 'text'], /passed 4\/4 scored/],
      [['profiles'], /oracle/],
      [
        [
          'rescore',
          path.join(UPSTREAM, 'results', '2026-06-29T23-06-17_mistralai_devstral-2512_text_v0.3.1.json'),
          '--fixtures',
          one,
        ],
        /compared 4, agree 4/,
      ],
    ];
    for (const [args, want] of runs) {
      const r = await gitbenchWithoutClient(args);
      expect(`${args[0]} exit ${r.code}\n${r.stderr}`).toBe(`${args[0]} exit 0\n${r.stderr}`);
      expect(r.stdout, args[0]).toMatch(want);
      expect(r.stderr).not.toContain('the database client was loaded');
    }
  });

  it(
    'campaign status reads a campaign whose stats are current ' +
      "without Prisma's client, and prints what it printed with it",
    { timeout: 120_000 },
    async () => {
      const t = await createTestDatabase(
        process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench',
        'noclient',
      );
      try {
        const env = { ...process.env, GITBENCH_DATABASE_SCHEMA: t.schema };
        const file = path.join(UPSTREAM, 'results', '2026-06-29T23-06-17_mistralai_devstral-2512_text_v0.3.1.json');
        const [imported] = jsonOf<{ campaignId: string }[]>(await gitbench(['import-legacy', file, '--json'], env));
        // The first status brings the stored stats up to date: a write, which takes Prisma's client.
        const withClient = await gitbench(['campaign', 'status', imported!.campaignId], env);
        expect(withClient.code, withClient.stderr).toBe(0);
        const r = await gitbenchWithoutClient(['campaign', 'status', imported!.campaignId], env);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(withClient.stdout);
        expect(r.stdout).toContain('68');
      } finally {
        await t.drop();
      }
    },
  );

  it(
    'finds (or builds) the sandbox image itself when GITBENCH_SANDBOX_IMAGE is not set',
    { timeout: 600_000 },
    async () => {
      const env = { ...process.env };
      delete env.GITBENCH_SANDBOX_IMAGE;
      const r = await gitbenchWithoutClient(['selfcheck', path.join(SUITE, 'git_grep')], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`using ${process.env.GITBENCH_SANDBOX_IMAGE}`);
      expect(r.stdout).toMatch(/4 passed, 0 failed/);
    },
  );
});
