import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { existsSync, readdirSync } from 'node:fs';
import type { CompletionResult } from '@gitbench/providers';
import {
  evidenceOfRun,
  buildFixtureRepositories,
  buildFixtureRepository,
  executeAttempt,
  scoreAttempt,
  selfcheckFixture,
  type FixtureSnapshot,
} from '../src';
import { cleanFixture } from './agent/support/clean-fixture';

const completion = (output: string) =>
  ({
    output,
    qualityFailure: null,
    usage: {},
    cost: { source: 'unknown', usd: null },
    apiDurationMs: 1,
    route: {},
    retries: [],
    flags: [],
  }) as unknown as CompletionResult;

import { UPSTREAM_FIXTURES as UPSTREAM } from '../../core/test/fixtures/upstream-data';
import { useTestDriver } from './test-driver';
const OURS = join(import.meta.dirname, '../../../fixtures');
let driver: DockerSandboxDriver;
const runLabel = useTestDriver('engine', (d) => (driver = d));

async function upstreamFixture(key: string): Promise<Fixture> {
  const path = `${key}.yaml`;
  const { fixtures, errors } = parseSuite([{ path, text: await readFile(join(UPSTREAM, path), 'utf8') }]);
  expect(errors).toEqual([]);
  return fixtures[0]!;
}

/** The workspace's file names: a leftover of an earlier build in the same sandbox would show here. */
const archived = (tar: Buffer) => spawnSync('tar', ['-t'], { input: tar, encoding: 'utf8' }).stdout.split('\n').sort();

describe('fixture repositories', () => {
  it('are identical, commit ids included, when built twice in fresh containers', async () => {
    // A conflict left in progress, a stash and several branches: the parts most likely to drift.
    const fixture = await upstreamFixture('merge_conflicts/f001');
    const [a, b] = [await buildFixtureRepository(fixture, driver), await buildFixtureRepository(fixture, driver)];
    expect(a.head).toMatch(/^[0-9a-f]{40}$/);
    expect(b.head).toBe(a.head);
    expect(b.inputHash).toBe(a.inputHash);
    expect(b.repoState).toBe(a.repoState);
    expect(a.repoState).toContain('MERGE_HEAD');
    // The sandbox compresses the archive it hands over; storage keeps those bytes.
    expect(a.packed.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(gunzipSync(a.packed)).toEqual(a.tar);
    expect(archived(a.tar)).toContain('./merge_conflicts_f001/.git/HEAD');
  });

  it('are the same when many are built in one sandbox as when each has a sandbox of its own', async () => {
    // Two fixtures of every domain of our suite (worktrees, submodules with bare remotes beside the
    // repository, stashes, reflogs, conflicts left in progress), plus a broken one in the middle.
    const files = readdirSync(OURS, { withFileTypes: true })
      // A folder with its own suite.yaml is a task family's suite, not a domain of this one.
      .filter((d) => d.isDirectory() && !existsSync(join(OURS, d.name, 'suite.yaml')))
      .flatMap((d) => ['f002.yaml', 'f011.yaml'].map((f) => `${d.name}/${f}`));
    const suite = parseSuite(
      await Promise.all(files.map(async (path) => ({ path, text: await readFile(join(OURS, path), 'utf8') }))),
    );
    expect(suite.errors).toEqual([]);
    const broken = { ...suite.fixtures[0]!, id: 'broken', setup: ['git init -q', 'exit 7'] };
    const fixtures = [...suite.fixtures.slice(0, 5), broken, ...suite.fixtures.slice(5)];
    const alone = await Promise.all(suite.fixtures.map((f) => buildFixtureRepository(f, driver)));
    // Reversed, so every fixture follows a different one than in any other order.
    const together = await buildFixtureRepositories([...fixtures].reverse(), driver, { sandboxes: 2 });
    expect(together.find((o) => o.fixture.id === 'broken')?.error?.message).toMatch(/setup\[1\] exited with status 7/);
    const byKey = new Map(
      together.filter((o) => o.snapshot).map((o) => [`${o.fixture.domain}/${o.fixture.id}`, o.snapshot!]),
    );
    expect(byKey.size).toBe(suite.fixtures.length);
    for (const a of alone) {
      const b = byKey.get(`${a.domain}/${a.fixtureId}`)!;
      expect({
        key: `${a.domain}/${a.fixtureId}`,
        files: archived(b.tar),
        hash: b.inputHash,
        head: b.head,
        context: b.context,
        commits: b.commits,
      }).toEqual({
        key: `${a.domain}/${a.fixtureId}`,
        files: archived(a.tar),
        hash: a.inputHash,
        head: a.head,
        context: a.context,
        commits: a.commits,
      });
    }
    // Each fixture built alone starts its own sandbox at once (about forty on two cores), and every
    // command in them now runs through the runner's uid switch and process sweep: past the file's 60 s
    // on a machine running the rest of the integration suite beside it. The test checks equality, not speed.
  }, 240_000);

  it(
    'are dealt to the sandboxes in turn, each benchmark shared ' + 'between them, and come back in the order given',
    async () => {
      const base = await upstreamFixture('git_clean/f001');
      const fixtures = Array.from({ length: 7 }, (_, i) => ({
        ...base,
        id: `dealt${i}`,
        setup: ['git init -q', `echo ${i} > n.txt`],
      }));
      const batches: string[][] = [];
      const recording = new Proxy(driver, {
        get(target, key) {
          const value = Reflect.get(target, key, target) as unknown;
          if (key !== 'runOnce' || typeof value !== 'function')
            return typeof value === 'function' ? value.bind(target) : value;
          return (request: { groups: { steps: { id: string; command: string }[] }[] }, opts: unknown) => {
            batches.push(
              request.groups.flatMap((g) =>
                g.steps.filter((s) => s.id === 'setup').map((s) => /git_clean_(dealt\d)/.exec(s.command)![1]!),
              ),
            );
            return (value as (r: unknown, o: unknown) => unknown).call(target, request, opts);
          };
        },
      });
      const outcomes = await buildFixtureRepositories(fixtures, recording, { sandboxes: 2, perSandbox: 3 });
      expect(batches.sort()).toEqual([
        ['dealt0', 'dealt3', 'dealt6'],
        ['dealt1', 'dealt4'],
        ['dealt2', 'dealt5'],
      ]);
      expect(outcomes.map((o) => o.fixture.id)).toEqual(fixtures.map((f) => f.id));
      expect(outcomes.map((o) => o.error?.message ?? null)).toEqual(fixtures.map(() => null));
    },
  );

  it('fail with the step that failed when the set-up is broken', async () => {
    const fixture = { ...(await upstreamFixture('git_clean/f001')), setup: ['git init', 'false', 'echo never'] };
    await expect(buildFixtureRepository(fixture, driver)).rejects.toThrow(/setup\[1\] exited with status 1: false/);
  });
});

describe('scoring an attempt', () => {
  let fixture: Fixture;
  let snapshot: FixtureSnapshot;
  beforeAll(async () => {
    fixture = await upstreamFixture('git_clean/f001');
    snapshot = await buildFixtureRepository(fixture, driver);
  });
  const score = (output: string, snap = snapshot) =>
    scoreAttempt({
      fixture,
      snapshot: snap,
      driver,
      outputMode: 'text',
      prompt: fixture.prompt,
      output,
      labels: runLabel,
    });

  it('runs the answer in a restored repository and recomputes the input hash there', async () => {
    const a = await score('git clean -f');
    expect(a.outcome).toBe('PASS');
    expect(a.hashes.input).toBe(snapshot.inputHash);
    expect(a.sandbox.kind).toBe('docker');
    if (a.sandbox.kind === 'docker') {
      expect(a.sandbox.imageId).toMatch(/^sha256:/);
      expect(a.sandbox.evidence.answer[0]?.exitCode).toBe(0);
      // The state after the answer is recorded for people: the removed files are gone from it.
      const after = a.sandbox.evidence.repoStateAfter ?? '';
      expect(after).toContain('== worktree');
      expect(after).not.toBe(snapshot.repoState);
      expect(after.split('\n').length).toBeLessThan(snapshot.repoState.split('\n').length);
    }
  });

  it('restores indexes whose stat data matches the files, as in the repository the fixture built', async () => {
    // Plumbing such as git diff-files and git apply --index trusts the cached stat data without
    // refreshing it; after unpacking, inode and ctime differ unless the engine refreshes the indexes.
    const text = [
      'id: f001',
      'description: fresh indexes',
      'difficulty: easy',
      'setup:',
      '  - git init -q && echo a > a.txt && git add a.txt && git commit -q -m A',
      '  - git worktree add -q -b side .worktrees/side && echo .worktrees/ >> .git/info/exclude',
      'prompt: Check the indexes.',
      'expected: git diff-files --quiet && git -C .worktrees/side diff-files --quiet && touch fresh',
      'scoring:',
      '  type: state_assertions',
      '  expected_state: {assertions: [{type: file_exists, path: fresh}]}',
      '',
    ].join('\n');
    const { fixtures, errors } = parseSuite([{ path: 'worktree_usage/f001.yaml', text }]);
    expect(errors).toEqual([]);
    const fresh = fixtures[0]!;
    const snap = await buildFixtureRepository(fresh, driver, { labels: runLabel });
    const a = await scoreAttempt({
      fixture: fresh,
      snapshot: snap,
      driver,
      outputMode: 'text',
      prompt: fresh.prompt,
      output: fresh.expected,
      labels: runLabel,
    });
    expect(a.outcome).toBe('PASS');
    expect(a.hashes.input).toBe(snap.inputHash);
  });

  it('reports a restored repository that is not the fixture as HASH_MISMATCH', async () => {
    const a = await score('git clean -f', { ...snapshot, inputHash: 'f'.repeat(64) });
    expect(a.outcome).toBe('HASH_MISMATCH');
    expect(a.passed).toBe(false);
  });

  // The same snapshot in agent mode: the agent is not run on a repository that is not the fixture's,
  // and the attempt ends like the single answer, HASH_MISMATCH through core's one table.
  it('ends an agent attempt HASH_MISMATCH, as a single answer, naming both hashes', async () => {
    const fixture = cleanFixture('git_clean', 'rm junk.txt');
    const built = await buildFixtureRepository(fixture, driver, { labels: runLabel });
    const altered: FixtureSnapshot = { ...built, inputHash: 'f'.repeat(64) };
    const model = { name: 'fixed', complete: () => Promise.resolve(completion('rm junk.txt')) };

    const single = await executeAttempt({
      fixture,
      snapshot: altered,
      driver,
      model,
      modelName: 'fixed',
      mode: 'text',
      labels: runLabel,
    });
    const agent = await executeAttempt({
      fixture,
      snapshot: altered,
      driver,
      model,
      modelName: 'oracle',
      mode: 'agent',
      labels: runLabel,
    });

    const classOf = (r: typeof single) => ({
      ending: r.ending,
      status: r.status,
      errorClass: r.errorClass,
      passed: r.passed,
    });
    expect(classOf(single)).toEqual({
      ending: { outcome: 'HASH_MISMATCH' },
      status: 'HASH_MISMATCH',
      errorClass: 'hash_mismatch',
      passed: null,
    });
    expect(classOf(agent)).toEqual(classOf(single));

    // The evidence says which hashes differed: the repository as restored against the snapshot's record.
    for (const run of [single, agent]) {
      expect(run.attempt!.hashes).toMatchObject({ input: built.inputHash, expectedInput: 'f'.repeat(64) });
      expect(run.errorMessage).toBe(
        `restored repository differs from the fixture snapshot ` +
          `(input hash ${built.inputHash.slice(0, 12)} ≠ ffffffffffff)`,
      );
      const evidence = evidenceOfRun(run, { mode: run === agent ? 'agent' : 'text', expected: fixture.expected });
      expect(evidence.scoring).toMatchObject({
        outcome: 'HASH_MISMATCH',
        hashes: { input: built.inputHash, expectedInput: 'f'.repeat(64) },
      });
      expect(evidence.error).toEqual({ class: 'hash_mismatch', message: run.errorMessage });
    }
    // Not the fixture's repository: the agent never ran on it.
    expect(agent.agent).toBeUndefined();
    expect(agent.attempt!.sandbox.kind).toBe('docker');
  }, 180_000);

  it('calls a sandbox that fails before the answer runs a sandbox error, not a quality result', async () => {
    const a = await score('git clean -f', { ...snapshot, tar: Buffer.from('not a tar archive') });
    expect(a.outcome).toBe('SANDBOX_ERROR');
    expect(a.error).toMatch(/sandbox failed before the answer ran: .*restore/);
    // An answer that kills its own sandbox is the answer's doing: scored, and failed.
    const killer = await score('kill -9 -1');
    expect(killer.outcome).toBe('FAIL');
  });

  it('scores hostile answers as failures with evidence, and later attempts are unaffected', async () => {
    const wipe = await score('rm -rf --no-preserve-root / ~ /work');
    expect(wipe.outcome).toBe('FAIL');
    const bomb = await score(':(){ :|:& };:');
    expect(bomb.outcome).toBe('FAIL');
    const empty = await score('');
    expect(empty.outcome).toBe('FAIL');
    const binary = await score('\u0000\u0001\u00ff garbage');
    expect(binary.outcome).toBe('FAIL');
    const after = await score('git clean -f');
    expect(after.outcome).toBe('PASS');
    expect(after.hashes.input).toBe(snapshot.inputHash);
  });

  it('starts no container when the scorer decides on the text', async () => {
    const exact = await upstreamFixture('worktree_usage/f004');
    const snap = await buildFixtureRepository(exact, driver);
    const a = await scoreAttempt({
      fixture: exact,
      snapshot: snap,
      driver,
      outputMode: 'text',
      prompt: exact.prompt,
      output: 'git worktree list',
    });
    expect(a.outcome).toBe('PASS');
    expect(a.sandbox).toEqual({ kind: 'none', reason: 'sandbox: none (scored on text)' });
    expect(a.hashes.input).toBe(snap.inputHash);
  });

  it('turns a structured answer back into text and fails a malformed one', async () => {
    const ok = await scoreAttempt({
      fixture,
      snapshot,
      driver,
      outputMode: 'json_schema',
      prompt: fixture.prompt,
      output: '{"command":"git clean -f"}',
    });
    expect(ok.scoredText).toBe('git clean -f');
    expect(ok.outcome).toBe('PASS');
    const bad = await scoreAttempt({
      fixture,
      snapshot,
      driver,
      outputMode: 'json_schema',
      prompt: fixture.prompt,
      output: 'git clean -f',
    });
    expect(bad.outcome).toBe('FAIL');
    expect(bad.structuredError).toMatch(/not valid JSON/);
    expect(bad.output).toBe('git clean -f');
  });
});

describe('self-check', () => {
  it('passes a fixture whose answer is a commit id known only after the build, with stable hashes', async () => {
    const r = await selfcheckFixture(await upstreamFixture('reflog/f001'), driver, { runs: 2, labels: runLabel });
    expect(r.status).toBe('passed');
    expect(new Set(r.inputHashes).size).toBe(1);
  });

  it('builds a judged fixture in every run and skips only its scoring', async () => {
    const r = await selfcheckFixture(await upstreamFixture('commit_messages/f001'), driver, {
      runs: 2,
      labels: runLabel,
    });
    expect(r.status).toBe('skipped');
    expect(r.reason).toMatch(/llm_judge.*repository built/);
    expect(r.inputHashes).toHaveLength(2);
    expect(new Set(r.inputHashes).size).toBe(1);
    expect(r.reference).toBeNull();
  });

  it('requires every alternative answer to pass, as it requires every negative to fail', async () => {
    const base = await upstreamFixture('git_clean/f001');
    const fixture: Fixture = {
      ...base,
      negatives: [{ answer: 'git clean -n', why: 'a dry run deletes nothing' }],
      alternatives: [
        { answer: 'rm untracked.txt', why: 'plain rm reaches the same state' },
        { answer: 'git clean -f -- untracked.txt', why: 'limited to the one file' },
      ],
    };
    const ok = await selfcheckFixture(fixture, driver, { labels: runLabel });
    expect(ok.status).toBe('passed');
    expect(ok.alternatives.map((a) => a.passed)).toEqual([true, true]);
    expect(ok.negatives.map((n) => n.passed)).toEqual([false]);

    const wrong = await selfcheckFixture(
      { ...fixture, alternatives: [{ answer: 'rm tracked.txt', why: 'not actually correct' }] },
      driver,
      { labels: runLabel },
    );
    expect(wrong.status).toBe('failed');
    expect(wrong.reason).toMatch(/^alternative fails: "rm tracked\.txt": .*file_not_exists untracked\.txt/);
  });
});
