import { LocalSandboxDriver } from '@gitbench/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFixtureRepositories } from '../src';
import { fixtureDefinitionHash, inputHash, type Fixture } from '../src/core-api';
import { oneCommitFixture } from './one-commit-fixture';
import { attemptHashes } from '../src/score-attempt';

// A real build with the host's git (the local driver, no Docker): the hashes a snapshot records are
// the rules' own, over this fixture's definition and the state its build read.
const driver = new LocalSandboxDriver({ warn: () => undefined });
afterAll(() => driver.close());

const fixture = oneCommitFixture();
// The same repository asked about otherwise: another input.
const reworded: Fixture = { ...fixture, id: 'f002', prompt: 'Print the log.', sourcePath: 'pinned/f002.yaml' };

describe("a built snapshot's hashes", () => {
  it('are the definition and the input of the fixture built, so two fixtures of one repository differ', async () => {
    const outcomes = await buildFixtureRepositories([fixture, reworded], driver, { sandboxes: 1 });
    const [a, b] = outcomes.map((o) => {
      if (!o.snapshot) throw o.error;
      return o.snapshot;
    });
    expect(a!.repoState).toContain('a.txt');
    expect(b!.repoState).toBe(a!.repoState);
    expect(a!.definitionHash).toBe(fixtureDefinitionHash(fixture));
    expect(a!.inputHash).toBe(inputHash(fixtureDefinitionHash(fixture), a!.repoState));
    expect(b!.inputHash).toBe(inputHash(fixtureDefinitionHash(reworded), b!.repoState));
    expect(b!.inputHash).not.toBe(a!.inputHash);
    // An attempt recomputes the input from the restored state: equal on the same repository, and
    // another fixture's snapshot is never taken for this one's.
    const hashes = attemptHashes(fixture, a!, 'prompt');
    expect(hashes).toMatchObject({ input: a!.inputHash, expectedInput: a!.inputHash, definition: a!.definitionHash });
    expect(attemptHashes(fixture, b!, 'prompt').input).not.toBe(b!.inputHash);
    expect(attemptHashes(fixture, a!, 'prompt', `${a!.repoState}x`).input).not.toBe(a!.inputHash);
  });
});
