/**
 * The scorer's look-ups (probes) on the fixture's repository exactly as built, read once by the build.
 *
 * An answer that runs no command leaves the repository as the build made it, so its probes print what
 * they print for every other such answer. Some scorers never run an answer at all (the bisect, the
 * reflog and the commit-by-subject look-ups): every attempt of theirs asked Docker for a container to
 * print the same `git log`. The build runs those probes in its own sandbox, after the archive is taken,
 * with HOME and the temporary directory emptied as in a sandbox an archive was just restored into, with
 * the index refreshed and the environment an attempt's batch gives them; an attempt whose plan has no
 * answer command and exactly these probes (commands, timeouts, output caps, environment) takes the
 * records instead of starting a sandbox. Anything that differs, or a build made before this existed,
 * runs in a sandbox of the attempt's own as before. The integration tests compare both ways, probe by
 * probe, on every fixture that has such a plan.
 */
import { resetScratchStep, type BatchStep, type StepRecord } from '@gitbench/sandbox';
import {
  getScorer,
  SETUP_ENV,
  shellQuote,
  WORKSPACE_VARIABLE,
  type ExecRecord,
  type Fixture,
  type SandboxEvidence,
  type SandboxPlan,
} from './core-api';
import {
  commandOutputBytes,
  lookupConfigStep,
  lookupSteps,
  REFRESH_INDEXES,
  type ExecutePlanOptions,
} from './execute-plan';
import type { PristineProbe, PristineProbes } from './fixture-snapshot';
import { stateSteps, toExecRecord } from './sandbox-steps';

/** The plan of an answer that runs nothing, when the fixture's scorer has probes for it. */
export function pristinePlanOf(fixture: Fixture): SandboxPlan | null {
  let plan: SandboxPlan | null;
  try {
    const scorer = getScorer(fixture.scoring.type);
    // A family's probes stage files and run its tests: read ahead, they would cost every build more
    // than the rare answer that runs nothing saves.
    if (!scorer.readsRepositoryOnly) return null;
    plan = scorer.plan(fixture, '');
  } catch {
    // A scorer that cannot plan an empty answer fails each attempt on its own; nothing to read ahead.
    return null;
  }
  return plan && plan.answerCommands.length === 0 && plan.probes.length > 0 ? plan : null;
}

/**
 * What the build key records of the look-ups a build reads ahead: the very steps it runs (the
 * sandbox's workdir left as a placeholder), so a change of the probes, their environment or of how
 * they are run is a new build. Null when there is nothing to read ahead.
 */
export function pristineKeyOf(fixture: Fixture, repoDir: string): unknown {
  const steps = pristineSteps(fixture, repoDir, '<workdir>');
  return steps.length > 0 ? steps : null;
}

const SCRATCH_STEP = resetScratchStep('pristine.scratch', { keepWorkspace: true });
const LOOKUP_CONFIG_ID = 'pristine.lookup.config';
/** The probes' own output caps: an attempt with other limits (GITBENCH_MAX_ATTEMPT_OUTPUT_BYTES) runs them itself. */
const BUILD_EXEC: ExecutePlanOptions = {};

/**
 * The build's steps for the fixture's look-ups, run after the archive and the other reads, with the
 * batch's directory (the sandbox's workdir) as the current directory. Empty when there is nothing to read.
 */
export function pristineSteps(fixture: Fixture, repoDir: string, workdir: string): BatchStep[] {
  const plan = pristinePlanOf(fixture);
  if (!plan) return [];
  // An attempt's batch exports the plan's environment first, then the pinned environment (which wins
  // for a name both set), then the workspace. One line, so bash reports a probe's errors on the lines
  // it would report them on alone.
  const exports = [
    ...Object.entries(plan.env ?? {})
      .filter(([name]) => !(name in SETUP_ENV))
      .map(([name, value]) => `${name}=${shellQuote(value)}`),
    `${WORKSPACE_VARIABLE}=${shellQuote(workdir)}`,
  ];
  const cap = commandOutputBytes(BUILD_EXEC, plan.probes.length);
  return [
    SCRATCH_STEP,
    { id: 'pristine.refresh', command: REFRESH_INDEXES, cwd: repoDir, timeoutMs: 60_000 },
    { ...lookupConfigStep(plan, repoDir), id: LOOKUP_CONFIG_ID },
    ...lookupSteps(plan, repoDir, cap).map((p) => ({
      ...p,
      id: `probe.${p.id}`,
      command: `export ${exports.join(' ')}; ${p.command}`,
    })),
    // Look-ups that only read leave the repository as built: its state is the build's own (see pristineOf).
    ...(onlyRead(plan) ? [] : stateSteps(repoDir).map((s) => ({ ...s, id: 'pristine.state' }))),
  ];
}

const onlyRead = (plan: SandboxPlan) => plan.probes.every((p) => p.readOnly === true);

/**
 * The look-ups as read by the build, or undefined when any step of theirs failed to run as planned.
 * `builtState` is the state the build read before them: the state after look-ups that only read.
 */
export function pristineOf(
  fixture: Fixture,
  records: readonly StepRecord[],
  builtState: string,
): PristineProbes | undefined {
  const plan = pristinePlanOf(fixture);
  if (!plan) return undefined;
  const byId = new Map(records.map((r) => [r.id, r]));
  if (
    byId.get(SCRATCH_STEP.id)?.exitCode !== 0 ||
    byId.get('pristine.refresh')?.exitCode !== 0 ||
    byId.get(LOOKUP_CONFIG_ID)?.exitCode !== 0
  )
    return undefined;
  const cap = commandOutputBytes(BUILD_EXEC, plan.probes.length);
  const probes: PristineProbe[] = [];
  for (const p of plan.probes) {
    const r = byId.get(`probe.${p.id}`);
    // A probe that timed out here may not time out in an attempt's sandbox: those attempts run it themselves.
    if (!r || r.timedOut) return undefined;
    probes.push({
      id: p.id,
      command: p.command,
      timeoutMs: p.timeoutMs ?? null,
      maxOutputBytes: cap,
      record: { ...toExecRecord(r), command: p.command },
    });
  }
  if (onlyRead(plan)) return { env: plan.env ?? {}, probes, repoStateAfter: builtState };
  const state = byId.get('pristine.state');
  return { env: plan.env ?? {}, probes, ...(state?.exitCode === 0 ? { repoStateAfter: state.stdout } : {}) };
}

/**
 * The evidence of a plan that runs no answer command, from the build's look-ups, or null when the
 * attempt must run its plan in a sandbox of its own (a command to run, other probes, other limits).
 */
export function pristineEvidence(
  plan: SandboxPlan,
  pristine: PristineProbes | undefined,
  exec: ExecutePlanOptions = {},
): SandboxEvidence | null {
  if (!pristine || plan.answerCommands.length > 0 || plan.probes.length !== pristine.probes.length) return null;
  if (!sameEnv(plan.env ?? {}, pristine.env)) return null;
  const cap = commandOutputBytes(exec, plan.probes.length);
  const probes: Record<string, ExecRecord> = {};
  for (const [i, p] of plan.probes.entries()) {
    const read = pristine.probes[i]!;
    if (
      read.id !== p.id ||
      read.command !== p.command ||
      read.timeoutMs !== (p.timeoutMs ?? null) ||
      read.maxOutputBytes !== cap
    )
      return null;
    probes[p.id] = read.record;
  }
  return {
    answer: [],
    probes,
    ...(pristine.repoStateAfter !== undefined ? { repoStateAfter: pristine.repoStateAfter } : {}),
  };
}

function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}
