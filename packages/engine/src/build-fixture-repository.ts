import type { BatchRequest, SandboxDriver, StepRecord } from '@gitbench/sandbox';
import { environmentPreamble, type Fixture } from './core-api';
import { outcomeOf, type BuildOutcome } from './fixture-build-outcome';
import { buildGroups, GROUPS_PER_FIXTURE } from './fixture-build-steps';
import type { BuiltSnapshot } from './fixture-snapshot';
import { mapPool } from './map-pool';

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
   * At most this many characters of fixture files (their base64, which travels inside the batch's
   * steps) per sandbox: the runner holds its whole batch, and the files are written out in the
   * sandbox's memory-limited tmpfs, so 40 fixtures carrying a few MB of git bundles each ran the
   * 512 MB sandbox out of memory before the first build ended. A fixture over the budget builds alone.
   */
  maxBatchFileChars?: number;
  /**
   * Told each fixture's outcome the moment its sandbox finished it, while the others still build:
   * planning writes and sends a fixture's attempts then, instead of after the last build.
   */
  onBuilt?: (outcome: BuildOutcome) => void;
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
  const chunks = buildBatches(fixtures, { sandboxes, ...opts });
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
 * The default of BuildManyOptions.maxBatchFileChars: 16 MiB of base64, about a quarter of the 60 MB of base64
 * a batch held when a 512 MB sandbox ran out of memory.
 */
export const MAX_BATCH_FILE_CHARS = 16 * 1024 * 1024;

/** What a fixture's files put into a batch: their base64, written out piece by piece in the sandbox. */
function fileCharsOf(fixture: Fixture): number {
  return (fixture.files ?? []).reduce((n, f) => n + f.base64.length, 0);
}

/**
 * The fixtures' indexes, one list per sandbox batch: at most perSandbox fixtures and maxBatchFileChars
 * of files each. Dealt out in turn rather than cut into runs: a suite lists a benchmark's fixtures
 * together, and they cost alike (a bisect context runs a test per commit, a submodule one a dozen
 * processes), so a sandbox given a run of the dear ones went on alone long after the other had
 * finished, with half the machine idle at the end of planning. Dealt, every sandbox gets its share of
 * each kind. A dealt batch still over the file budget is halved until it fits or holds one fixture.
 */
export function buildBatches(
  fixtures: readonly Fixture[],
  opts: { sandboxes: number; perSandbox?: number; maxBatchFileChars?: number },
): number[][] {
  if (fixtures.length === 0) return [];
  const perSandbox = Math.max(1, Math.min(opts.perSandbox ?? 40, Math.ceil(fixtures.length / opts.sandboxes)));
  const budget = Math.max(1, opts.maxBatchFileChars ?? MAX_BATCH_FILE_CHARS);
  const chars = fixtures.map(fileCharsOf);
  const total = chars.reduce((a, b) => a + b, 0);
  const count = Math.min(fixtures.length, Math.max(Math.ceil(fixtures.length / perSandbox), Math.ceil(total / budget)));
  const dealt = Array.from({ length: count }, (_, c) => fixtures.map((_, i) => i).filter((i) => i % count === c));
  const fits = (batch: number[]) => batch.length === 1 || batch.reduce((n, i) => n + chars[i]!, 0) <= budget;
  const out: number[][] = [];
  const split = (batch: number[]): void => {
    if (fits(batch)) out.push(batch);
    else {
      const half = Math.ceil(batch.length / 2);
      split(batch.slice(0, half));
      split(batch.slice(half));
    }
  };
  dealt.forEach(split);
  return out;
}

async function buildInOneSandbox(
  fixtures: readonly Fixture[],
  driver: SandboxDriver,
  opts: BuildManyOptions,
): Promise<BuildOutcome[]> {
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
    groups: buildGroups(fixtures, workdir, opts.setupTimeoutMs),
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
