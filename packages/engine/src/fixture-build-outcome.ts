/** A build's step records read into its snapshot, or into why the fixture could not be built. */
import { gunzipSync } from 'node:zlib';
import type { StepRecord } from '@gitbench/sandbox';
import { fixtureDefinitionHash, inputHash, type Fixture } from './core-api';
import { FixtureSetupError } from './errors';
import { GROUPS_PER_FIXTURE } from './fixture-build-steps';
import { repoDirOf, type BuiltSnapshot } from './fixture-snapshot';
import { toContextResults } from './gather-context';
import { pristineOf } from './pristine-probes';
import { toExecRecord } from './sandbox-steps';

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

/** Fixture i's outcome from the records of its groups (see buildGroups). */
export function outcomeOf(
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
