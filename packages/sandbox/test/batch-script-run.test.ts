import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBatch, parseBatch } from '../src/batch-script';
import { shellQuote } from '@gitbench/core';
import { hostRunner } from '../src/step-runner';
import type { BatchRequest } from '../src/types';

// The generated script is run here by the host's bash (no Docker): every string that reaches the
// script through a quoting function (the directory, the environment, the runner's plan and code)
// must arrive byte for byte, whatever quotes, dollars and backslashes it holds.

const HOSTILE = `it's "quoted" $HOME \`id\` \\ \\' '' ; $(echo no) \n end`;
const scratch = mkdtempSync(path.join(tmpdir(), 'gb-batch-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(request: BatchRequest, viaStdin = false) {
  const built = buildBatch(request, scratch, { viaStdin, runner: hostRunner() });
  const t0 = Date.now();
  const r = spawnSync(built.argv[0]!, built.argv.slice(1), {
    input: built.stdin,
    env: { PATH: '/usr/bin:/bin', TMPDIR: scratch },
    maxBuffer: built.maxBytes,
    timeout: 30_000,
  });
  return parseBatch(request, {
    stdout: r.stdout,
    stderr: r.stderr,
    exitCode: r.status ?? 1,
    hostTimedOut: false,
    durationMs: Date.now() - t0,
  });
}

describe('the batch script, run by bash', () => {
  it('quotes a word so that bash reads it back unchanged', () => {
    for (const word of [HOSTILE, '', "'", "\\'", '$', '!x']) {
      const r = spawnSync('bash', ['-c', `printf '%s' ${shellQuote(word)}`]);
      expect(r.stdout.toString()).toBe(word);
    }
  });

  it('hands every step, its directory and its environment over byte for byte', () => {
    const dir = path.join(scratch, `dir ${HOSTILE.replace(/\n/g, '')}`);
    mkdirSync(dir, { recursive: true });
    for (const viaStdin of [false, true]) {
      const result = run(
        {
          cwd: dir,
          env: { GB_VALUE: HOSTILE },
          groups: [
            {
              stopOnFailure: false,
              steps: [
                { id: 'cmd', command: `printf '%s' ${shellQuote(HOSTILE)}` },
                { id: 'cwd', command: 'pwd' },
                { id: 'python', command: 'true', thenPython: `out.write(${JSON.stringify(HOSTILE)}.encode())` },
                { id: 'git-words', command: `git --version` },
                ...(viaStdin ? [{ id: 'env', command: `printf '%s' "$GB_VALUE"` }] : []),
              ],
            },
          ],
        },
        viaStdin,
      );
      expect(result.aborted).toBeUndefined();
      const byId = Object.fromEntries(result.groups[0]!.map((s) => [s.id, s]));
      expect(byId['cmd']).toMatchObject({ exitCode: 0, stdout: HOSTILE });
      expect(byId['cwd']!.stdout).toBe(`${dir}\n`);
      expect(byId['python']).toMatchObject({ exitCode: 0, stdout: HOSTILE });
      expect(byId['git-words']!.stdout).toMatch(/^git version /);
      if (viaStdin) expect(byId['env']!.stdout).toBe(HOSTILE);
    }
  });

  it('runs a long script sent on stdin the same way', () => {
    const long = `printf '%s' ${shellQuote(HOSTILE)} # ${'x'.repeat(120_000)}`;
    const result = run({ groups: [{ stopOnFailure: false, steps: [{ id: 'long', command: long }] }] });
    expect(result.aborted).toBeUndefined();
    expect(result.groups[0]![0]).toMatchObject({ exitCode: 0, stdout: HOSTILE });
  });

  it("gives a step its own environment over the batch's, and the next step none of it", () => {
    // Sent on stdin, as to a one-shot sandbox: the script exports the batch's environment itself.
    const result = run(
      {
        env: { SHARED: 'batch', OWN: 'batch' },
        groups: [
          {
            stopOnFailure: false,
            steps: [
              { id: 'own', command: 'printf "%s|%s" "$SHARED" "$OWN"', env: { OWN: HOSTILE } },
              { id: 'next', command: 'printf %s "$OWN"' },
            ],
          },
        ],
      },
      true,
    );
    expect(result.aborted).toBeUndefined();
    expect(result.groups[0]!.map((r) => r.stdout)).toEqual([`batch|${HOSTILE}`, 'batch']);
  });
});
