import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, type BatchStep, type SandboxDriver } from '@gitbench/sandbox';
import { toExecRecord, stateSteps } from './sandbox-steps';
import { builtGitFiles } from './built-git-files';
import {
  configKeysRead,
  environmentPreamble,
  forgedObjects,
  lookupConfigPy,
  lookupEnvironment,
  WORKSPACE_VARIABLE,
  type BuiltGitFiles,
  type ExecRecord,
  type SandboxEvidence,
  type SandboxPlan,
} from './core-api';
import { archiveBytes, type FixtureSnapshot } from './fixture-snapshot';

export interface PlanExecution {
  evidence: SandboxEvidence;
  /** Canonical state of the restored repository, read before the answer ran. */
  repoState: string;
  /**
   * Whether that read finished. When it did not, the sandbox failed before the answer started (a
   * restore that failed, a container removed from outside): nothing about the model can be scored.
   */
  stateRead: boolean;
  /** Set when the sandbox could not run the plan to the end; the evidence is then incomplete. */
  aborted?: string;
  /**
   * What the answer's processes tampered with, when they did: the sandbox's records broke their
   * protocol (see the sandbox's batch-output-reader), or the repository could not be made ready for
   * the scorer's look-ups.
   */
  tampering?: string;
  /**
   * Set when the sandbox was stopped from outside it (its runner killed by a signal no process inside
   * may send: the host's OOM killer, the engine, an operator): whenever it happened, nothing about the
   * model can be scored.
   */
  stoppedOutside?: string;
  durationMs: number;
  /** The one-shot sandbox the plan ran in. */
  sandboxId: string;
}

/**
 * What one command of a single answer may take. The prompt states it (COMMAND_TIME_LIMIT, rendered from this
 * constant), so it is not an option: a limit set here alone would contradict what the model was told.
 */
export const ANSWER_COMMAND_TIMEOUT_MS = DEFAULT_TIMEOUT_MS;

export interface ExecutePlanOptions {
  /** Per command: stdout and stderr kept (head and tail). */
  maxOutputBytes?: number;
  /** Commands of one answer that may run (GITBENCH_MAX_ANSWER_COMMANDS); more fail the answer unrun. */
  maxAnswerCommands?: number;
  /** Output kept over all of one attempt's commands (GITBENCH_MAX_ATTEMPT_OUTPUT_BYTES), shared between them. */
  maxAttemptOutputBytes?: number;
}

export const DEFAULT_MAX_ANSWER_COMMANDS = 100;

/**
 * The step that rewrites the repository's configuration to the whitelist the scorer trusts (core's
 * lookupConfigPy), run as the sandbox's uid once the model's processes are gone and before the first
 * look-up; the keys the look-ups themselves read are kept. Given what the build left (`built`, from
 * the archive the sandbox was restored from), the files of every git directory that change what git
 * prints are put back as built, the working tree's layout settings are the build's, the index's bits
 * that hide a change are cleared and every object is checked against its name (its stderr then names
 * the forged ones). One step, in the runner's own python3: a separate `git fsck` cost each attempt
 * about 5 ms of CPU, for objects that are the build's.
 */
export function lookupConfigStep(plan: SandboxPlan, cwd: string, built?: BuiltGitFiles): BatchStep {
  return {
    id: 'lookup.config',
    command: 'true',
    thenPython: lookupConfigPy(configKeysRead(plan.probes.map((p) => p.command)), built),
    cwd,
    timeoutMs: 60_000,
  };
}

/** The scorer's look-ups as steps, each with the fixed environment of core's lookupEnvironment. */
export function lookupSteps(plan: SandboxPlan, cwd: string, maxOutputBytes?: number): BatchStep[] {
  const env = lookupEnvironment();
  return plan.probes.map((p) => ({
    id: p.id,
    command: p.command,
    cwd,
    env,
    timeoutMs: p.timeoutMs,
    ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}),
  }));
}
export const DEFAULT_MAX_ATTEMPT_OUTPUT_BYTES = 8 * 1024 * 1024;
/** No command keeps less than this, however many share the attempt's budget. */
const MIN_COMMAND_OUTPUT_BYTES = 4 * 1024;

/** Each command's share of the attempt's output budget, never above the per-command cap. */
export function commandOutputBytes(opts: ExecutePlanOptions, commands: number): number {
  const share = Math.max(
    MIN_COMMAND_OUTPUT_BYTES,
    Math.floor((opts.maxAttemptOutputBytes ?? DEFAULT_MAX_ATTEMPT_OUTPUT_BYTES) / Math.max(1, commands)),
  );
  return Math.min(share, opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
}

/**
 * Unpacking the snapshot gives every file a new inode and ctime, so the stat data cached in each index
 * no longer matches and plumbing that trusts it without refreshing (`git diff-files`, `git apply
 * --index`, `git diff-index`) sees every tracked file as modified, unlike in the repository the fixture
 * built. Refreshing the main, linked-worktree and submodule indexes restores that; it changes only
 * cached stat data, which the input hash does not cover.
 */
export const REFRESH_INDEXES = [
  'git update-index -q --refresh >/dev/null 2>&1',
  // Linked worktrees and submodules are rare: look for them before starting the commands that walk
  // them (every sandboxed attempt pays for this step; `git submodule` alone starts a dozen processes).
  // A plain `.git` directory here is the common one (as in the state read); anything else asks git.
  'if [ -d .git ] && [ ! -L .git ] && [ -z "${GIT_DIR:-}${GIT_COMMON_DIR:-}" ]; then ' +
    'gb_common=.git; else gb_common=$(git rev-parse --git-common-dir 2>/dev/null); fi',
  'if [ -d "$gb_common/worktrees" ]; then',
  "  git worktree list --porcelain 2>/dev/null | sed -n 's/^worktree //p' | tail -n +2 | while IFS= read -r wt; do",
  '    git -C "$wt" update-index -q --refresh >/dev/null 2>&1',
  '  done',
  'fi',
  'if [ -f .gitmodules ]; then',
  "  git submodule foreach --quiet --recursive 'git update-index -q --refresh >/dev/null 2>&1 || true' >/dev/null 2>&1",
  'fi',
  'true',
].join('\n');

/**
 * Restores the fixture's repository into a fresh sandbox and runs, in one round trip: the state read
 * (for the input hash), an index refresh, the answer's commands in order until the first failure, then
 * every probe. The sandbox is the driver's one-shot kind: used for this plan only, removed afterwards.
 */
export async function executePlan(
  plan: SandboxPlan,
  driver: SandboxDriver,
  snapshot: FixtureSnapshot,
  opts: ExecutePlanOptions & { labels?: Record<string, string> } = {},
): Promise<PlanExecution> {
  const cwd = snapshot.repoDir;
  const maxOutputBytes = commandOutputBytes(opts, plan.answerCommands.length + plan.probes.length);
  const tar = await archiveBytes(snapshot.tar);
  const result = await driver.runOnce(
    {
      restoreTar: tar,
      // The same pinned environment as the set-up, so a commit made by an answer is reproducible too.
      // Re-scoring maps the workspace an upstream answer named onto this one (core's workspaceTranslation).
      preamble: `${environmentPreamble()}\nexport ${WORKSPACE_VARIABLE}="$PWD"`,
      ...(plan.env ? { env: plan.env } : {}),
      groups: [
        { stopOnFailure: false, steps: [...stateSteps(cwd), { id: 'refresh', command: REFRESH_INDEXES, cwd }] },
        {
          stopOnFailure: true,
          steps: plan.answerCommands.map((command, i) => ({
            id: `answer.${i}`,
            command,
            cwd,
            timeoutMs: ANSWER_COMMAND_TIMEOUT_MS,
            maxOutputBytes,
          })),
        },
        // Every process of the answer's is gone by now (the runner kills them after each step).
        { stopOnFailure: false, steps: [lookupConfigStep(plan, cwd, builtGitFiles(tar, cwd))] },
        { stopOnFailure: false, steps: lookupSteps(plan, cwd, maxOutputBytes) },
        // What the answer left behind, shown on the attempt page; no scorer reads it. Read as the
        // look-ups read, so no program of the model's (a hook, an fsmonitor in a global file) runs for it.
        {
          stopOnFailure: false,
          steps: stateSteps(cwd).map((s) => ({ ...s, id: 'state.after', env: lookupEnvironment() })),
        },
      ],
    },
    opts.labels ? { labels: opts.labels } : {},
  );
  const [stateRecords = [], answerRecords = [], prepared = [], probeRecords = [], afterRecords = []] = result.groups;
  const probes: Record<string, ExecRecord> = {};
  for (const r of probeRecords) probes[r.id] = toExecRecord(r);
  const evidence: SandboxEvidence = { answer: answerRecords.map(toExecRecord), probes };
  if (afterRecords[0]?.exitCode === 0) evidence.repoStateAfter = afterRecords[0].stdout;
  const stoppedAt = result.stoppedAt[1];
  if (stoppedAt !== undefined) evidence.stoppedAt = stoppedAt;
  const execution: PlanExecution = {
    evidence,
    repoState: stateRecords[0]?.stdout ?? '',
    stateRead: stateRecords[0]?.exitCode === 0,
    durationMs: Math.round(result.durationMs),
    sandboxId: result.sandboxId,
  };
  if (result.aborted) execution.aborted = result.aborted;
  if (result.tampering) execution.tampering = `the sandbox's channel: ${result.tampering}`;
  // The answer's processes may fill the sandbox's memory until the OOM killer takes the runner (they
  // can lower the score that makes them its first victims): counted as theirs, never excluded.
  else if (result.killed === 'out_of_memory') execution.tampering = `the sandbox's memory: ${result.aborted}`;
  else if (result.killed === 'signal') execution.stoppedOutside = result.aborted;
  else if (!result.aborted) {
    const view = scorerViewTampering(prepared);
    if (view) execution.tampering = view;
  }
  return execution;
}

/**
 * How the answer's processes left the scorer a repository that could lie to its look-ups, from the
 * record of lookupConfigStep, or undefined. The preparation fails only on what
 * the model left (a file it made unremovable), and look-ups on a half-prepared repository could be
 * fooled; an object whose content is not its name was forged. Both are tampering, never an excluded
 * sandbox failure the model could choose.
 */
export function scorerViewTampering(
  records: readonly { id: string; exitCode: number; stderr: string }[],
): string | undefined {
  const config = records.find((r) => r.id === 'lookup.config');
  // A repository directory that is gone (or cannot be entered) is not tampering: the look-ups cannot
  // enter it either, and fail, as they should for a repository the answer deleted.
  if (
    config &&
    config.exitCode !== 0 &&
    !(config.exitCode === 126 && config.stderr.startsWith('gitbench: cannot enter '))
  ) {
    return (
      `the scorer's view: the repository could not be prepared for the scorer's look-ups ` +
      `(exit ${config.exitCode}): ${config.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500)}`
    );
  }
  const forged = forgedObjects(config?.stderr ?? '');
  if (forged.length > 0)
    return (
      `the scorer's view: objects whose content is not what their ` +
      `names say: ${forged.slice(0, 3).join('; ').slice(0, 500)}`
    );
  return undefined;
}
