/** What a fixture's build runs in its sandbox, and the key that names a build by all of it. */
import { resetScratchStep, type BatchGroup, type BatchStep, type SandboxDescription } from '@gitbench/sandbox';
import {
  canonicalJson,
  environmentPreamble,
  fileSteps,
  fixtureDefinitionHash,
  setupScript,
  shellQuote,
  sha256Hex,
  type Fixture,
} from './core-api';
import { repoDirOf } from './fixture-snapshot';
import { contextSteps } from './gather-context';
import { pristineKeyOf, pristineSteps } from './pristine-probes';
import { stateSteps } from './sandbox-steps';

/**
 * The workspace (repository and its siblings), gzip-compressed and as base64, so it travels in a
 * step's text output; pipefail, so a tar that fails is not hidden behind a gzip that did not.
 */
const ARCHIVE_STEP: BatchStep = {
  id: 'archive',
  command: 'set -o pipefail; tar -c -f - . | gzip -n -1 | base64 -w0',
  maxOutputBytes: 256 * 1024 * 1024,
};

/**
 * Every commit any ref or reflog reaches, with its subject. A plain git call, so the runner starts git
 * without a shell; its exit status is not read (an unborn repository lists nothing either way).
 */
const COMMITS_COMMAND = "git log --all --reflog --format='%H%x09%s'";

/**
 * What a build's result depends on, hashed: the fixture's definition, every script the build runs
 * and the sandbox image. Two builds with the same key give the same snapshot (builds are
 * deterministic; selfcheck proves it per fixture), so a campaign may reuse an earlier campaign's build
 * of it. Null where a build may differ with the host (the local driver runs the host's git).
 */
export function fixtureBuildKey(fixture: Fixture, sandbox: SandboxDescription): string | null {
  const parts = fixtureBuildKeyParts(fixture, sandbox);
  return parts ? sha256Hex(canonicalJson(parts)) : null;
}

/** What fixtureBuildKey hashes: its tests check that every step a build runs is in it. */
export function fixtureBuildKeyParts(fixture: Fixture, sandbox: SandboxDescription): Record<string, unknown> | null {
  if (!sandbox.isolated) return null;
  const repoDir = repoDirOf(fixture);
  const pristine = pristineKeyOf(fixture, repoDir);
  return {
    format: 1,
    definition: fixtureDefinitionHash(fixture),
    repoDir,
    // Only fixtures that have files carry the key, so every other build key stays as it was.
    ...(fixture.files?.length ? { files: fileSteps(fixture) } : {}),
    setup: setupScript(fixture),
    preamble: environmentPreamble(),
    archive: ARCHIVE_STEP.command,
    // The listing's code too: it prints part of the state (builds whose state step was one command get another key).
    state: stateSteps(repoDir).map((s) => [s.command, s.thenPython ?? null]),
    context: contextSteps(fixture, repoDir).map((s) => s.command),
    commits: COMMITS_COMMAND,
    // Only fixtures whose scorer reads the repository for an answer that runs nothing carry it.
    ...(pristine ? { pristine } : {}),
    image: sandbox.imageId,
  };
}

/**
 * Groups per fixture: build (reset, set-up, archive), then state, context, commit list and the
 * scorer's look-ups on the repository as built (see pristine-probes.ts) if it built.
 */
export const GROUPS_PER_FIXTURE = 5;

/**
 * What one fixture's set-up may take. Real-history set-ups are heavy: recovery/cachetools-r13's runs
 * filter-branch over 445 commits, which overran 120 s while CI's other tests loaded the machine. A model
 * never waits on a set-up, so a generous limit costs nothing but the time a broken set-up takes to fail.
 */
export const SETUP_TIMEOUT_MS = 300_000;

/** The batch groups that build the fixtures one after the other in one sandbox whose workspace is `workdir`. */
export function buildGroups(
  fixtures: readonly Fixture[],
  workdir: string,
  setupTimeoutMs: number | undefined,
): BatchGroup[] {
  return fixtures.flatMap((fixture, i): BatchGroup[] => {
    const repoDir = repoDirOf(fixture);
    const build = i * GROUPS_PER_FIXTURE;
    const setup: BatchStep = {
      id: 'setup',
      command:
        `mkdir -p -- ${shellQuote(repoDir)} && cd ` + `-- ${shellQuote(repoDir)} || exit 90\n${setupScript(fixture)}`,
      timeoutMs: setupTimeoutMs ?? SETUP_TIMEOUT_MS,
      maxOutputBytes: 256 * 1024,
    };
    // The suite's files go in first, each piece a step of its own (see core's fileSteps).
    const files: BatchStep[] = fileSteps(fixture).map((command, n) => ({
      id: `files.${n}`,
      command,
      cwd: repoDir,
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024,
    }));
    const enter: BatchStep[] =
      files.length > 0 ? [{ id: 'workspace', command: `mkdir -p -- ${shellQuote(repoDir)}` }] : [];
    return [
      {
        stopOnFailure: true,
        steps: [...(i > 0 ? [resetScratchStep('reset')] : []), ...enter, ...files, setup, ARCHIVE_STEP],
      },
      { stopOnFailure: false, requires: build, steps: stateSteps(repoDir) },
      { stopOnFailure: false, requires: build, steps: contextSteps(fixture, repoDir) },
      {
        stopOnFailure: false,
        requires: build,
        steps: [{ id: 'commits', command: COMMITS_COMMAND, cwd: repoDir }],
      },
      { stopOnFailure: false, requires: build, steps: pristineSteps(fixture, repoDir, workdir) },
    ];
  });
}
