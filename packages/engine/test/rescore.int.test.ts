import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFixtureFile, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_FIXTURES, UPSTREAM_RESULTS } from '../../core/test/fixtures/upstream-data';
import { loadSuiteDir, readRecordedScores, rescoreRecorded, type RecordedScore } from '../src';
import { useTestDriver } from './test-driver';

/**
 * Re-scoring maps what upstream's run recorded onto our rebuilt repository through the prompt it
 * recorded: the temporary workspace an answer `cd`s into, and commit ids shown in `git show` output.
 */
let driver: DockerSandboxDriver;
const runLabel = useTestDriver('rescore', (d) => (driver = d));

const textRun = readFileSync(
  join(UPSTREAM_RESULTS, '2026-06-29T23-06-17_mistralai_devstral-2512_text_v0.3.1.json'),
  'utf8',
);
const recorded = readRecordedScores('text.json', textRun);
const worktreeRemove = recorded.find(
  (s) => s.benchmark === 'worktree_usage' && s.fixtureId === 'f003',
) as RecordedScore;

describe("upstream's temporary workspace", () => {
  const ws = /worktree (\S*worktree_usage_f003_[a-z0-9_]{8})\/worktree_usage_f003/.exec(
    worktreeRemove.recordedPrompt ?? '',
  )?.[1] as string;

  it(
    'is mapped onto ours in answers that cd into it or name paths in it, in every quoting',
    { timeout: 300_000 },
    async () => {
      expect(ws).toMatch(/^\/private\/var\/folders\//);
      const { fixtures } = await loadSuiteDir(join(UPSTREAM_FIXTURES, 'worktree_usage'));
      const answers: [string, boolean][] = [
        [`cd ${ws}/worktree_usage_f003 && git worktree remove ${ws}/feature-wt`, true],
        [`cd ${ws.replace('/private', '')}/worktree_usage_f003\ngit worktree remove ../feature-wt`, true],
        [`git worktree remove '${ws}/feature-wt'`, true],
        [`git worktree remove "${ws}/feature-wt"`, true],
        // A path the recorded prompt never showed is not upstream's workspace: nothing maps it.
        ['cd /tmp/worktree_usage_f003_zzzzzzzz/worktree_usage_f003 && git worktree remove ../feature-wt', false],
      ];
      const scores = answers.map(([answer, passed]) => ({
        ...worktreeRemove,
        modelOutput: answer,
        rawAnswer: answer,
        passed,
      }));
      const summary = await rescoreRecorded(scores, fixtures, driver, { labels: runLabel });
      expect(summary.disagreements.map((d) => [d.output, d.checks])).toEqual([]);
      expect(summary.compared).toBe(answers.length);
    },
  );
});

describe('commit ids in git show output', () => {
  it('are mapped through the subject under each commit header', { timeout: 300_000 }, async () => {
    const text = [
      'id: f001',
      'description: the full id of a commit',
      'difficulty: easy',
      'tags: [hash]',
      'purpose: mapping ids',
      'setup:',
      '- git init -q',
      "- echo a > a.txt && git add a.txt && git commit -q -m 'Initial commit'",
      "- echo b > b.txt && git add b.txt && git commit -q -m 'Add parser'",
      'prompt: Give the full id of the commit that added the parser.',
      'expected: (looked up)',
      'scoring: {type: commit_hash_by_subject, subject: Add parser}',
      '',
    ].join('\n');
    const fixture = parseFixtureFile({ path: 'git_show/f001.yaml', text, domain: 'git_show' }).fixtures[0] as Fixture;
    const theirs = '724961d53dbb037e9c8c4c6c9e04a02df65c1572';
    const prompt =
      `${fixture.prompt}\n\nAll commits:\ncommit ${theirs}\nAuthor: Test User ` +
      `<test@test.com>\nDate:   Mon Jun 29 15:27:46 2026 -0700\n\n    Add parser\n---\n b.txt | 1 +\n`;
    const base: RecordedScore = {
      ...worktreeRemove,
      benchmark: 'git_show',
      fixtureId: 'f001',
      recordedPrompt: prompt,
      error: null,
    };
    const summary = await rescoreRecorded(
      [
        { ...base, modelOutput: theirs, rawAnswer: theirs, passed: true },
        {
          ...base,
          modelOutput: 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
          rawAnswer: 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
          passed: false,
        },
      ],
      [fixture],
      driver,
      { labels: runLabel },
    );
    expect(summary.disagreements).toEqual([]);
    expect(summary.compared).toBe(2);
  });
});
