import path from 'node:path';
import type { BatchRequest, OneShotResult, SandboxDescription, SandboxDriver } from '@gitbench/sandbox';
import { describe, expect, it } from 'vitest';
import { buildFixtureRepository, fixtureBuildKey, fixtureBuildKeyParts, loadSuiteDir } from '../src';
import { canonicalJson, setupScript, shellQuote, type Fixture } from '../src/core-api';
import { repoDirOf } from '../src/fixture-snapshot';
import { UPSTREAM_FIXTURES } from '../../core/test/fixtures/upstream-data';
import { oneCommitFixture } from './one-commit-fixture';

const docker: SandboxDescription = {
  driver: 'docker',
  image: 'gitbench-sandbox:x',
  imageId: 'sha256:1',
  isolated: true,
  workdir: '/work',
};
const OWN_SUITES = ['fixtures', 'fixtures/gists', 'fixtures/repo-tasks'].map((dir) =>
  path.resolve(import.meta.dirname, '../../..', dir),
);

async function allFixtures(): Promise<Fixture[]> {
  const suites = await Promise.all([UPSTREAM_FIXTURES, ...OWN_SUITES].map((dir) => loadSuiteDir(dir)));
  return suites.flatMap((s) => s.fixtures);
}

/** Takes the batch a build would run, runs nothing: what it records is all the test reads. */
class RecordingDriver implements SandboxDriver {
  static readonly WORKDIR = '/recorded-workdir';
  requests: BatchRequest[] = [];
  describe(): SandboxDescription {
    return { ...docker, workdir: RecordingDriver.WORKDIR };
  }
  async runOnce(request: BatchRequest): Promise<OneShotResult> {
    this.requests.push(request);
    return {
      groups: request.groups.map(() => []),
      stoppedAt: [],
      aborted: 'recorded only',
      durationMs: 0,
      sandboxId: 'recorded',
    };
  }
  create(): never {
    throw new Error('not used');
  }
  async removeByLabels(): Promise<number> {
    return 0;
  }
  async removeOrphans(): Promise<number> {
    return 0;
  }
  async close(): Promise<void> {}
}

async function buildRequest(fixture: Fixture): Promise<BatchRequest> {
  const driver = new RecordingDriver();
  await expect(buildFixtureRepository(fixture, driver)).rejects.toThrow(/recorded only/);
  return driver.requests[0]!;
}

describe('a fixture build key', () => {
  it(
    'is the same for the same definition on the same image, with ' +
      'or without look-ups read ahead, and none without isolation',
    async () => {
      const suite = await loadSuiteDir(UPSTREAM_FIXTURES);
      const bisect = suite.fixtures.find((f) => f.scoring.type === 'bisect_regression')!;
      const exact = suite.fixtures.find((f) => f.scoring.type === 'exact_match')!;
      const key = fixtureBuildKey(bisect, docker);
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      // Same definition, same key: builds are shared between campaigns by it.
      expect(fixtureBuildKey(structuredClone(bisect), docker)).toBe(key);
      // A state assertion more is a definition (and a probe) more: a new build, its look-ups read again.
      const sa = suite.fixtures.find((f) => f.scoring.type === 'state_assertions')!;
      const expected = sa.scoring.expected_state as { assertions: unknown[] };
      const more = {
        ...sa,
        scoring: {
          ...sa.scoring,
          expected_state: { assertions: [...expected.assertions, { type: 'file_exists', path: 'README.md' }] },
        },
      };
      expect(fixtureBuildKey(more, docker)).not.toBe(fixtureBuildKey(sa, docker));
      expect(fixtureBuildKey(exact, docker)).toMatch(/^[0-9a-f]{64}$/);
      expect(fixtureBuildKey(bisect, { ...docker, imageId: 'sha256:2' })).not.toBe(key);
      // No key where a build may differ with the host.
      expect(fixtureBuildKey(exact, { ...docker, driver: 'local', isolated: false })).toBeNull();
    },
  );

  it(
    'is pinned: a change to any script a build runs gives ' +
      'every fixture a new key, and the old builds are not reused',
    () => {
      const fixture = oneCommitFixture();
      // When this fails because a build script changed on purpose, the new value is right: old builds
      // are then built again once. When it fails for any other reason, a key part was lost.
      expect(fixtureBuildKey(fixture, docker)).toBe('a0f9c1f77941d0fde166944098f494aa277d8759ff2e375aec3a1e30f7f6ce18');
    },
  );

  it('changes with every part of the definition and with the image, each alone', async () => {
    const fixtures = await allFixtures();
    for (const f of fixtures.slice(0, 40)) {
      const key = fixtureBuildKey(f, docker);
      for (const change of [
        { prompt: `${f.prompt}.` },
        { expected: `${f.expected}.` },
        { setup: [...f.setup, 'true'] },
        { tags: [...f.tags, 'x'] },
        { description: `${f.description}.` },
      ]) {
        expect(fixtureBuildKey({ ...f, ...change }, docker), `${f.domain}/${f.id} ${Object.keys(change)[0]}`).not.toBe(
          key,
        );
      }
      expect(fixtureBuildKey(f, { ...docker, imageId: 'sha256:2' })).not.toBe(key);
    }
  });

  it('holds every step a build runs: its command, its Python code and the preamble', async () => {
    const fixtures = await allFixtures();
    const kinds = new Set<string>();
    for (const f of fixtures) {
      const keyText = canonicalJson(fixtureBuildKeyParts(f, docker));
      const holds = (part: unknown) => keyText.includes(canonicalJson(part));
      const request = await buildRequest(f);
      const where = `${f.domain}/${f.id}`;
      expect(holds(request.preamble), `${where} preamble`).toBe(true);
      const repoDir = shellQuote(repoDirOf(f));
      for (const step of request.groups.flatMap((g) => g.steps)) {
        kinds.add(step.id.replace(/\..*/, ''));
        if (step.id === 'setup') {
          // The set-up script under a fixed prefix that enters the repository directory.
          expect(holds(setupScript(f)), `${where} setup`).toBe(true);
          expect(holds(repoDirOf(f)), `${where} repoDir`).toBe(true);
          expect(step.command.replace(setupScript(f), '').replaceAll(repoDir, 'R')).toBe(
            'mkdir -p -- R && cd -- R || exit 90\n',
          );
        } else if (step.id === 'workspace') {
          expect(step.command.replaceAll(repoDir, 'R')).toBe('mkdir -p -- R');
        } else if (step.id.startsWith('probe.') || step.id.startsWith('pristine.')) {
          // The look-ups read ahead are held whole, with the workspace's path left out (see pristineKeyOf).
          expect(
            holds(JSON.parse(JSON.stringify(step).replaceAll(RecordingDriver.WORKDIR, '<workdir>'))),
            `${where} ${step.id}`,
          ).toBe(true);
        } else {
          expect(holds(step.command), `${where} ${step.id}`).toBe(true);
          if (step.thenPython !== undefined) expect(holds(step.thenPython), `${where} ${step.id} python`).toBe(true);
        }
      }
    }
    // Every kind of step was seen, so none of the branches above is dead.
    expect([...kinds].sort()).toEqual([
      'archive',
      'commits',
      'context',
      'files',
      'pristine',
      'probe',
      'setup',
      'state',
      'workspace',
    ]);
  });
});
