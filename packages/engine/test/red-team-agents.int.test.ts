import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeAttempt, type AttemptRun } from '../src';
import { scriptedAgent, type ScriptedCall } from './agent/support/scripted-agent';
import {
  buildFamilyTasks,
  expectCountedFailure,
  PATH_TRICK,
  PYTEST_TRICK,
  REPOSITORY_TRICK,
  type FamilyTasks,
} from './red-team-families';
import { useTestDriver } from './test-driver';

/**
 * The red team's agents against the task families: hostile calls through GitGoodBench's own tools
 * (paths, option-like names, a NUL byte), and agents that plant programs and settings for the
 * families' graders before they submit. Each runs through executeAttempt and the real Docker sandbox;
 * each must end as a counted failure, and a grader's verdict must be the one it gives without the tricks.
 */
let driver: DockerSandboxDriver;
useTestDriver('red-team-agents', (d) => (driver = d), { prestart: 1 });
let tasks: FamilyTasks;

beforeAll(async () => {
  tasks = await buildFamilyTasks(driver);
}, 300_000);

const agentAttempt = (
  name: string,
  calls: ScriptedCall[],
  suite: keyof FamilyTasks,
  toolSet: string,
): Promise<AttemptRun> =>
  executeAttempt({
    ...tasks[suite],
    driver,
    model: scriptedAgent(name, calls),
    modelName: name,
    mode: 'agent',
    agent: { config: { toolSet, limits: { commandTimeoutMs: 20_000, maxTurns: 30, maxWallMs: 240_000 } } },
    labels: { 'org.gitbench.attempt': name },
  });

const REASON = 'red team';
const view = (tool: string, path: string): ScriptedCall => ({
  tool,
  args: { relative_path_from_project_root: path, reason: REASON },
});

describe("the red team, GitGoodBench's merge tools and the editor", { timeout: 300_000 }, () => {
  it(
    'paths out of the repository, with a NUL byte, option-like and with pathspec magic: refused or read as ' +
      'paths, .git/config untouched, and the unresolved merge a counted failure',
    async () => {
      const calls: ScriptedCall[] = [
        view('view_file_at', 'src/click/core.py\u0000'),
        view('view_file_at', '../../../opt/gitbench/runner/session.py'),
        view('view_file_at', '/etc/passwd'),
        view('view_diff_for', '--output=.git/config'),
        view('view_merge_base_of', '--upload-pack=touch /tmp/pwned'),
        view('view_diff_for', ':(top,glob)**'),
        view('view_file_at', '.git/config'),
      ];
      const run = await agentAttempt('red-team-ggb-tools', calls, 'ggb', 'ggb-mcr');
      expectCountedFailure(run);
      expect(run.errorClass).toBeNull();
      expect(run.agent?.summary.exitStatus).toBe('submitted');
      const results = run.agent!.steps.slice(0, calls.length).map((s) => s.results[0]!);
      expect(
        results.slice(0, 3).map((r) => [r.isError, r.output.includes('must be a path inside the repository')]),
      ).toEqual([
        [true, true],
        [true, true],
        [true, true],
      ]);
      expect(results[5]!.isError).toBe(false);
      expect(results[6]!).toMatchObject({ isError: false });
      expect(results[6]!.output).toContain('[core]');
      expect(results[6]!.output).not.toMatch(/output|upload|pwned/);
    },
  );

  it(
    "the editor's read and write of a path with a NUL byte: refused to the model, the session goes on " +
      '(its runner died of it: an excluded sandbox error the model could choose)',
    async () => {
      const run = await agentAttempt(
        'red-team-nul',
        [
          { tool: 'read_file', args: { path: 'src/click/core.py\u0000' } },
          { tool: 'write_file', args: { path: 'a\u0000b', content: 'x' } },
          'read_file .git/HEAD',
        ],
        'ggb',
        'editor',
      );
      expectCountedFailure(run);
      expect(run.errorClass).toBeNull();
      expect(run.agent?.summary.exitStatus).toBe('submitted');
      const results = run.agent!.steps.slice(0, 3).map((s) => s.results[0]!);
      expect(results.map((r) => r.isError)).toEqual([true, true, false]);
      expect(results[0]!.output).toMatch(/cannot be read: .*null/);
    },
  );
});

/** What an attempt's grader decided, and nothing that changes from one run to another. */
const verdict = (run: AttemptRun) => ({
  status: run.status,
  errorClass: run.errorClass,
  outcome: run.attempt?.outcome,
  checks: run.attempt?.checks.map((c) => [c.check, c.ok]),
  family: run.attempt?.family,
});

/**
 * The families' graders against agents: each agent gives the same wrong answer twice, once alone and
 * once followed by programs and settings planted for the grader (core.fsmonitor, filter and diff drivers,
 * a replace ref, programs named like the grader's tools earlier in PATH and in HOME, pytest's
 * configuration), then submits. The grader's verdict must be the same both times, and a counted failure.
 */
describe("the red team, agents against the families' graders", { timeout: 900_000 }, () => {
  const wrong: Record<keyof FamilyTasks, string[]> = {
    'repo-tasks': ['mkdir -p output && cp input/card.ppm output/card.png'],
    gists: ["cat > gist.py <<'GITBENCH_GIST'\ndef test_pattern_flat():\n    assert False\nGITBENCH_GIST"],
    ggb: ['git add -A && git -c core.hooksPath=/dev/null commit -q --no-verify -m merged || true'],
  };
  const tricks: Record<keyof FamilyTasks, string[]> = {
    'repo-tasks': [...REPOSITORY_TRICK, ...PATH_TRICK],
    gists: [...REPOSITORY_TRICK, ...PYTEST_TRICK, ...PATH_TRICK],
    ggb: [...REPOSITORY_TRICK, ...PATH_TRICK],
  };
  for (const suite of Object.keys(wrong) as (keyof FamilyTasks)[])
    it(`${suite}: the same verdict with the tricks as without, a counted failure`, async () => {
      const plain = await agentAttempt(`red-team-${suite}-plain`, wrong[suite], suite, 'bash');
      const tricked = await agentAttempt(
        `red-team-${suite}-tricks`,
        [...wrong[suite], ...tricks[suite]],
        suite,
        'bash',
      );
      expectCountedFailure(tricked);
      expect(tricked.agent?.summary.exitStatus).toBe('submitted');
      expect(tricked.agent!.steps.slice(0, -1).every((s) => !s.results[0]!.isError)).toBe(true);
      expect(verdict(tricked)).toEqual(verdict(plain));
    });
});
