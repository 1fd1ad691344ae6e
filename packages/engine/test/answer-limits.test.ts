import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxDriver } from '@gitbench/sandbox';
import { commandOutputBytes, DEFAULT_MAX_ANSWER_COMMANDS } from '../src/execute-plan';
import { loadSuiteDir } from '../src/load-suite-dir';
import { scoreAttempt } from '../src/score-attempt';
import type { FixtureSnapshot } from '../src/fixture-snapshot';
import { UPSTREAM_FIXTURES } from '../../core/test/fixtures/upstream-data';

// A driver that must never be reached: the limit is checked before any sandbox starts.
const unreachable = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('the sandbox must not start');
    },
  },
) as unknown as SandboxDriver;

describe('limits on what one answer may run', () => {
  it('fails an answer with more commands than GITBENCH_MAX_ANSWER_COMMANDS, unrun, saying why', async () => {
    const suite = await loadSuiteDir(path.join(UPSTREAM_FIXTURES, 'git_clean'));
    const fixture = suite.fixtures.find((f) => f.id === 'f002')!;
    const output = Array.from({ length: 5 }, (_, i) => `echo ${i}`).join('\n');
    const snapshot = {
      repoState: '',
      inputHash: '',
      repoDir: 'repo',
      context: {},
      tar: Buffer.alloc(0),
    } as unknown as FixtureSnapshot;
    const result = await scoreAttempt({
      fixture,
      snapshot,
      driver: unreachable,
      outputMode: 'text',
      prompt: 'p',
      output,
      exec: { maxAnswerCommands: 4 },
    });
    expect(result.outcome).toBe('FAIL');
    expect(result.error).toBe('The answer holds 5 commands; at most 4 run (GITBENCH_MAX_ANSWER_COMMANDS).');
    expect(result.sandbox).toEqual({ kind: 'none', reason: 'not run: too many commands' });
    expect(DEFAULT_MAX_ANSWER_COMMANDS).toBe(100);
  });

  it("shares the attempt's output budget between its commands, never above the per-command cap nor below 4 KiB", () => {
    expect(commandOutputBytes({}, 3)).toBe(1024 * 1024);
    expect(commandOutputBytes({ maxAttemptOutputBytes: 1024 * 1024 }, 8)).toBe(128 * 1024);
    expect(commandOutputBytes({ maxAttemptOutputBytes: 1024 * 1024 }, 10_000)).toBe(4 * 1024);
    expect(commandOutputBytes({ maxAttemptOutputBytes: 64 * 1024 * 1024, maxOutputBytes: 1000 }, 1)).toBe(1000);
  });
});
