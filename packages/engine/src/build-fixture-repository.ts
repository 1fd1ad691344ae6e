import { gunzipSync } from 'node:zlib';
import {
  resetScratchStep,
  type BatchGroup,
  type BatchRequest,
  type BatchStep,
  type SandboxDescription,
  type SandboxDriver,
  type StepRecord,
} from '@gitbench/sandbox';
import {
  canonicalJson,
  environmentPreamble,
  fileSteps,
  fixtureDefinitionHash,
  inputHash,
  setupScript,
  shellQuote,
  sha256Hex,
  type Fixture,
} from './core-api';
import { FixtureSetupError } from './errors';
import { repoDirOf, type BuiltSnapshot } from './fixture-snapshot';
import { contextSteps, toContextResults } from './gather-context';
import { mapPool } from './map-pool';
import { pristineKeyOf, pristineOf, pristineSteps } from './pristine-probes';
import { stateSteps, toExecRecord } from './sandbox-steps';

export interface BuildOptions {
  labels?: Record<string, string>;
  /** The whole set-up script's limit; fixtures build in well under a second. */
  setupTimeoutMs?: number;
}

export interface BuildManyOptions extends BuildOptions {
  /** Sandboxes used at once; each builds its share of the fixtures one after the other. */
  sandboxes?: number;
  /** At most this many fixtures per sandbox, so one slow set-up delays few others. */
  perSandbox?: number;
  /**
   * Told each fixture's outcome the moment its sandbox finished it, while the others still build:
   * planning writes and sends a fixture's attempts then, instead of after the last build.
   */
  onBuilt?: (outcome: BuildOutcome) => void;
}

/** One fixture's build: its snapshot, or why its repository could not be built. */
export type BuildOutcome =
  | { fixture: Fixture; snapshot: BuiltSnapshot; error?: undefined }
  | { fixture: Fixture; snapshot?: undefined; error: FixtureSetupError };

/**
 * HEAD's commit id, from the state's first section (`symbolic <ref> <id>` or `detached <id>`), or ''
 * for an unborn HEAD: read off the state instead of another step per build.
 */
export function headOf(state: string): string {
  const id = (state.split('\n', 2)[1] ?? '').split(' ').at(-1) ?? '';
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id) ? id : '';
}

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
 * Builds a fixture's repository once, in a sandbox of its own, from core's deterministic set-up
 * script, and returns it as a snapshot that attempts restore. Throws FixtureSetupError when the
 * set-up fails.
 */
export async function buildFixtureRepository(
  fixture: Fixture,
  driver: SandboxDriver,
  opts: BuildOptions = {},
): Promise<BuiltSnapshot> {
  const [outcome] = await buildInOneSandbox([fixture], driver, opts);
  if (outcome!.error) throw outcome!.error;
  return outcome!.snapshot;
}

/**
 * Builds many fixtures' repositories with few sandboxes: each sandbox builds its share one after the
 * other in a single round trip, emptying its workspace, HOME and temporary directory before each
 * fixture, so every build starts from what a fresh sandbox holds. Starting a sandbox costs far more
 * than building a small repository, which is why a campaign's planning does it this way; the input
 * hashes are the same as those of fixtures built one per sandbox (the engine's tests and
 * `gitbench selfcheck` compare them). A failing fixture fails alone.
 */
export async function buildFixtureRepositories(
  fixtures: readonly Fixture[],
  driver: SandboxDriver,
  opts: BuildManyOptions = {},
): Promise<BuildOutcome[]> {
  const sandboxes = Math.max(1, opts.sandboxes ?? 2);
  const perSandbox = Math.max(1, Math.min(opts.perSandbox ?? 40, Math.ceil(fixtures.length / sandboxes)));
  // Dealt out in turn rather than cut into runs: a suite lists a benchmark's fixtures together, and
  // they cost alike (a bisect context runs a test per commit, a submodule one a dozen processes), so
  // a sandbox given a run of the dear ones went on alone long after the other had finished, with
  // half the machine idle at the end of planning. Dealt, every sandbox gets its share of each kind.
  const count = Math.ceil(fixtures.length / perSandbox);
  const chunks = Array.from({ length: count }, (_, c) => fixtures.map((_, i) => i).filter((i) => i % count === c));
  const built = await mapPool(chunks, sandboxes, (chunk) =>
    buildInOneSandbox(
      chunk.map((i) => fixtures[i]!),
      driver,
      opts,
    ),
  );
  // In the order the fixtures were given, as callers pair them.
  const outcomes: BuildOutcome[] = [];
  chunks.forEach((chunk, c) => chunk.forEach((i, k) => (outcomes[i] = built[c]![k]!)));
  return outcomes;
}

/**
 * Groups per fixture: build (reset, set-up, archive), then state, context, commit list and the
 * scorer's look-ups on the repository as built (see pristine-probes.ts) if it built.
 */
const GROUPS_PER_FIXTURE = 5;

async function buildInOneSandbox(
  fixtures: readonly Fixture[],
  driver: SandboxDriver,
  opts: BuildManyOptions,
): Promise<BuildOutcome[]> {
  const groupsIn = (workdir: string) =>
    fixtures.flatMap((fixture, i): BatchGroup[] => {
      const repoDir = repoDirOf(fixture);
      const build = i * GROUPS_PER_FIXTURE;
      const setup: BatchStep = {
        id: 'setup',
        command:
          `mkdir -p -- ${shellQuote(repoDir)} && cd ` + `-- ${shellQuote(repoDir)} || exit 90\n${setupScript(fixture)}`,
        timeoutMs: opts.setupTimeoutMs ?? 120_000,
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
  const d = driver.describe();
  const image = { tag: d.image, id: d.imageId, driver: d.driver, isolated: d.isolated };
  let lastAt = performance.now();
  const outcomes: BuildOutcome[] = [];
  /** Fixture i's outcome once its steps ended (it runs wholly before fixture i + 1 starts). */
  const settle = (i: number, records: StepRecord[][], aborted: string | undefined) => {
    if (outcomes[i]) return;
    const now = performance.now();
    outcomes[i] = outcomeOf(fixtures[i]!, i, records, aborted, image, Math.round(now - lastAt));
    lastAt = now;
    opts.onBuilt?.(outcomes[i]);
  };
  const seen: StepRecord[][] = Array.from({ length: fixtures.length * GROUPS_PER_FIXTURE }, () => []);
  // The pinned environment reaches every step; the set-up script establishes it again for itself.
  const request = (workdir: string): BatchRequest => ({
    preamble: environmentPreamble(),
    groups: groupsIn(workdir),
    onRecord: (group, record) => {
      seen[group]!.push(record);
      // A record of a later fixture means every earlier one has ended.
      const current = Math.floor(group / GROUPS_PER_FIXTURE);
      for (let i = 0; i < current; i++) settle(i, seen, undefined);
    },
  });
  const labels = opts.labels ? { labels: opts.labels } : {};
  // The batch goes to the driver's cheapest fresh sandbox (Docker's pre-started one: no container
  // start before the first build, no exec). The local driver's sandboxes each have their own path,
  // which the look-ups read ahead must name: there the batch is made once the sandbox is.
  const result = await driver.runOnce(d.workdir !== undefined ? request(d.workdir) : request, labels);
  for (let i = 0; i < fixtures.length; i++) settle(i, result.groups, result.aborted);
  return outcomes;
}

function outcomeOf(
  fixture: Fixture,
  i: number,
  groups: StepRecord[][],
  aborted: string | undefined,
  image: BuiltSnapshot['image'],
  buildMs: number,
): BuildOutcome {
  const key = `${fixture.domain}/${fixture.id}`;
  const repoDir = repoDirOf(fixture);
  const base = i * GROUPS_PER_FIXTURE;
  const fail = (message: string, log?: string): BuildOutcome => ({
    fixture,
    error: new FixtureSetupError(key, message, log),
  });
  const buildRecords = groups[base] ?? [];
  const reset = buildRecords.find((r) => r.id === 'reset');
  if (reset && reset.exitCode !== 0)
    return fail(`the sandbox could not be emptied before the build: ${lastLines(reset.stderr)}`);
  const failedFile = buildRecords.find((r) => r.id.startsWith('files.') && r.exitCode !== 0);
  if (failedFile)
    return fail(
      `the suite's files could not be placed: ${lastLines(failedFile.stderr || failedFile.stdout)}`,
      failedFile.stderr,
    );
  const setupRecord = buildRecords.find((r) => r.id === 'setup');
  if (!setupRecord) return fail(`set-up did not finish: ${aborted ?? 'no record'}`);
  if (setupRecord.exitCode !== 0) {
    const why = setupRecord.timedOut ? 'timed out' : `exited ${setupRecord.exitCode}`;
    return fail(`set-up ${why}: ${lastLines(setupRecord.stderr || setupRecord.stdout)}`, setupRecord.stderr);
  }
  const archive = buildRecords.find((r) => r.id === 'archive');
  if (!archive || archive.exitCode !== 0 || archive.truncated) {
    return fail(`the built workspace could not be archived: ${lastLines(archive?.stderr ?? aborted ?? 'no record')}`);
  }
  let packed: Buffer;
  let tar: Buffer;
  try {
    packed = Buffer.from(archive.stdout, 'base64');
    tar = gunzipSync(packed);
  } catch (err) {
    return fail(`the built workspace's archive could not be read: ${(err as Error).message}`);
  }
  const [state] = groups[base + 1] ?? [];
  if (!state || state.exitCode !== 0)
    return fail(`repository state could not be read: ${lastLines(state?.stderr ?? aborted ?? '')}`);
  const definitionHash = fixtureDefinitionHash(fixture);
  return {
    fixture,
    snapshot: {
      domain: fixture.domain,
      fixtureId: fixture.id,
      repoDir,
      tar,
      packed,
      repoState: state.stdout,
      definitionHash,
      inputHash: inputHash(definitionHash, state.stdout),
      head: headOf(state.stdout),
      context: toContextResults(groups[base + 2] ?? []),
      commits: parseCommits(groups[base + 3]?.[0]?.stdout ?? ''),
      ...withPristine(pristineOf(fixture, groups[base + 4] ?? [], state.stdout)),
      setupLog: toExecRecord(setupRecord),
      image,
      buildMs,
    },
  };
}

function withPristine(pristine: BuiltSnapshot['pristine']): Pick<BuiltSnapshot, 'pristine'> {
  return pristine ? { pristine } : {};
}

function parseCommits(text: string): { hash: string; subject: string }[] {
  const seen = new Set<string>();
  const commits: { hash: string; subject: string }[] = [];
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab !== 40 || seen.has(line.slice(0, 40))) continue;
    seen.add(line.slice(0, 40));
    commits.push({ hash: line.slice(0, 40), subject: line.slice(41) });
  }
  return commits;
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-5).join(' | ').slice(0, 800);
}
