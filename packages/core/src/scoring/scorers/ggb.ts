import { ggbIccConfig, ggbIrConfig, ggbMcrConfig, type ConfigResult } from '../../families/ggb/config';
import { historyCommand, parseHistory } from '../../families/ggb/history';
import type { GgbCommit, GgbOutcome, GgbScenario } from '../../families/outcome';
import type { Fixture } from '../../fixtures/types';
import { stageFiles, stagingDir } from '../../families/sandbox-staging';
import { shellQuote } from '../../shell-quote';
import { check, clip, configError, verdict } from '../result';
import type { ExecRecord, Probe, SandboxEvidence, SandboxPlan, ScoreCheck, ScoreResult, Scorer } from '../types';

/**
 * GitGoodBench's scenarios, scored as the paper scores them. A single answer is a bash script run from
 * the repository root; an agent works in the repository itself. Afterwards read-only probes look at
 * what is left:
 * - MCR is solved iff no file is unmerged and `git diff <merge tree> HEAD` is empty.
 * - IR and ICC are decided by the pairwise judge (judging/history-judge.ts): the scorer collects the
 *   agent's history and hands over to it, unless the attempt already failed: a rebase still in
 *   progress, no commit at all, or (ICC) a target file whose changes are not all committed.
 */

export const GGB_PROBES = {
  unmerged: 'ggb.unmerged',
  diff: 'ggb.diff',
  rebase: 'ggb.rebase',
  history: 'ggb.history',
  finalBlob: 'ggb.final_blob',
} as const;

/** How much of the MCR diff the outcome keeps (the attempt page shows it). */
export const GGB_DIFF_CAP = 60_000;

const REBASE_PROBE =
  'for d in rebase-merge rebase-apply; do if [ -d "$(git rev-parse ' +
  '--git-path "$d")" ]; then echo in-progress; exit 0; fi; done; echo none';

function answerCommands(output: string): string[] {
  return output.trim() === '' ? [] : [output];
}

function ggbScorer<C>(
  type: string,
  scenario: GgbScenario,
  config: (f: Pick<Fixture, 'scoring' | 'assets' | 'files'>) => ConfigResult<C>,
  probes: (c: C) => Probe[],
  decide: (c: C, evidence: SandboxEvidence | undefined) => ScoreResult,
): Scorer {
  return {
    type,
    plan(fixture, output): SandboxPlan {
      const parsed = config(fixture);
      return { answerCommands: answerCommands(output), probes: parsed.ok ? probes(parsed.config) : [] };
    },
    score({ fixture, evidence }) {
      const parsed = config(fixture);
      if (!parsed.ok)
        return configError(fixture, parsed.problems.map((p) => `scoring.${p.field}: ${p.message}`).join('; '));
      const result = decide(parsed.config, evidence);
      if (result.family?.family === 'ggb' && result.family.scenario !== scenario) throw new Error('scenario mismatch');
      return result;
    },
  };
}

const missing = (id: string) => `the ${id} probe did not run`;

function outcomeResult(outcome: GgbOutcome, checks: ScoreCheck[], needsJudge = false): ScoreResult {
  const solved = outcome.solved === true;
  const result = verdict(solved, solved ? 1 : 0, checks);
  result.family = outcome;
  if (needsJudge) result.needsJudge = true;
  return result;
}

export const ggbMcrScorer = ggbScorer(
  'ggb_mcr',
  'mcr',
  ggbMcrConfig,
  (c) => {
    const dir = stagingDir('ggb');
    const staged = stageFiles('ggb', dir, { 'merge.bundle': c.mergeBundle });
    return [
      { id: GGB_PROBES.unmerged, command: 'git diff --name-only --diff-filter=U' },
      // Objects only (no ref, no reflog): the merge commit's tree becomes readable for the diff.
      ...staged.probes,
      {
        id: GGB_PROBES.diff,
        command:
          `${staged.ready} && git bundle unbundle ${staged.paths['merge.bundle']} ` +
          `>/dev/null && git diff --no-color --no-ext-diff ${c.merge_tree} HEAD`,
      },
    ];
  },
  (c, evidence) => {
    const unmergedRec = evidence?.probes[GGB_PROBES.unmerged];
    const diffRec = evidence?.probes[GGB_PROBES.diff];
    const unmerged = unmergedRec ? unmergedRec.stdout.split('\n').filter(Boolean) : [];
    const diff = diffRec?.stdout ?? '';
    const diffOk = diffRec !== undefined && diffRec.exitCode === 0 && !diffRec.timedOut && diff === '';
    const checks = [
      check(
        'no unmerged file',
        unmergedRec !== undefined && unmergedRec.exitCode === 0 && unmerged.length === 0,
        unmergedRec
          ? unmerged.length === 0
            ? 'no file is left unmerged'
            : `unmerged: ${unmerged.join(', ')}`
          : missing(GGB_PROBES.unmerged),
      ),
      check(
        'HEAD equals the merge commit',
        diffOk,
        diffRec === undefined
          ? missing(GGB_PROBES.diff)
          : diffRec.exitCode !== 0
            ? `git diff failed: ${diffRec.stderr.trim()}`
            : diff === ''
              ? '`git diff <merge commit> HEAD` is empty'
              : differenceDetail(diff),
      ),
    ];
    const solved = checks.every((x) => x.ok);
    const outcome: GgbOutcome = {
      family: 'ggb',
      scenario: 'mcr',
      success: true,
      solved,
      // The one-line form: the attempt page shows the whole kept diff right under this line.
      detail: solved
        ? 'merge resolved exactly as the real merge commit'
        : checks
            .filter((x) => !x.ok)
            .map((x) => x.detail.split('\n')[0])
            .join('; '),
      mcr: {
        mergeCommit: c.merge_commit,
        unmerged,
        diff: diff.slice(0, GGB_DIFF_CAP),
        diffTruncated: diff.length > GGB_DIFF_CAP || diffRec?.truncated === true,
      },
    };
    return outcomeResult(outcome, checks);
  },
);

/** How much of the MCR diff the failing check itself shows: enough to see what differs, in the CLI's error line too. */
export const GGB_CHECK_DIFF_LINES = 40;
const CHECK_DIFF_CHARS = 4_000;

/** The files a `git diff` touches, by their post-image path (the pre-image one for a deletion). */
function diffFiles(diff: string): string[] {
  const files: string[] = [];
  for (const m of diff.matchAll(/^diff --git a\/(.*) b\/(.*)$/gm)) files.push(m[2]!);
  return files;
}

/**
 * A failing MCR check: which files differ, then the first lines of the diff, cut at a line boundary
 * with a count of what was left out (the outcome keeps up to GGB_DIFF_CAP of it for the attempt page).
 */
function differenceDetail(diff: string): string {
  const files = diffFiles(diff);
  const shownFiles = files.slice(0, 10).join(', ') + (files.length > 10 ? `, … ${files.length - 10} more` : '');
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const kept: string[] = [];
  let chars = 0;
  for (const raw of lines) {
    // The agent wrote these lines: control characters are made visible and a very long line is cut.
    const line = clip(raw, 200);
    if (kept.length >= GGB_CHECK_DIFF_LINES || chars + line.length + 1 > CHECK_DIFF_CHARS) break;
    kept.push(line);
    chars += line.length + 1;
  }
  const rest = lines.length - kept.length;
  const tail = rest > 0 ? `\n… ${rest} more diff line(s), see the whole diff in the attempt's evidence` : '';
  return `HEAD differs from the merge commit in ${files.length} file(s): ${shownFiles}\n${kept.join('\n')}${tail}`;
}

type ChainConfig = { base: string; original_history: GgbCommit[] };

function historyDecision(
  scenario: 'ir' | 'icc',
  c: ChainConfig & { target_file?: string; final_blob?: string },
  evidence: SandboxEvidence | undefined,
): ScoreResult {
  const rebaseRec = evidence?.probes[GGB_PROBES.rebase];
  const historyRec = evidence?.probes[GGB_PROBES.history];
  const rebaseInProgress = rebaseRec?.stdout.trim() === 'in-progress';
  const agent = historyRec && historyRec.exitCode === 0 ? parseHistory(historyRec.stdout) : [];
  const checks: ScoreCheck[] = [];
  if (scenario === 'ir')
    checks.push(
      check(
        'no rebase in progress',
        rebaseRec !== undefined && !rebaseInProgress,
        rebaseRec === undefined
          ? missing(GGB_PROBES.rebase)
          : rebaseInProgress
            ? 'a rebase is still in progress'
            : 'the rebase has finished',
      ),
    );
  checks.push(readable(historyRec, agent.length));
  if (scenario === 'icc') {
    const finalRec = evidence?.probes[GGB_PROBES.finalBlob];
    const blob = finalRec?.stdout.trim() ?? '';
    checks.push(
      check(
        `every change to ${c.target_file} is committed`,
        blob === c.final_blob,
        finalRec === undefined
          ? missing(GGB_PROBES.finalBlob)
          : blob === c.final_blob
            ? 'HEAD holds the file as the chain ends'
            : `HEAD holds ${blob === '' ? 'no such file' : `blob ${blob.slice(0, 12)}`}, ` +
              `not the chain's end (${c.final_blob!.slice(0, 12)})`,
      ),
    );
  }
  const failed = checks.filter((x) => !x.ok);
  const outcome: GgbOutcome = {
    family: 'ggb',
    scenario,
    success: true,
    solved: failed.length > 0 ? false : null,
    detail: failed.length > 0 ? failed.map((x) => x.detail).join('; ') : 'awaits the pairwise judge',
    histories: {
      original: c.original_history,
      agent,
      rebaseInProgress,
      targetFile: scenario === 'icc' ? (c.target_file ?? null) : null,
    },
  };
  if (failed.length > 0) return outcomeResult(outcome, checks);
  return outcomeResult(
    outcome,
    [
      ...checks,
      check(
        'pairwise judge',
        false,
        "needs the pairwise history judge: solved only if the agent's history wins both orderings",
      ),
    ],
    true,
  );
}

function readable(rec: ExecRecord | undefined, commits: number): ScoreCheck {
  if (rec === undefined) return check('history', false, missing(GGB_PROBES.history));
  if (rec.exitCode !== 0) return check('history', false, `the history could not be read: ${rec.stderr.trim()}`);
  return check(
    'history',
    commits > 0,
    commits > 0 ? `${commits} commit(s) since the chain's base` : "no commit since the chain's base",
  );
}

export const ggbIrScorer = ggbScorer(
  'ggb_ir',
  'ir',
  ggbIrConfig,
  (c) => [
    { id: GGB_PROBES.rebase, command: REBASE_PROBE },
    { id: GGB_PROBES.history, command: historyCommand(c.base) },
  ],
  (c, evidence) => historyDecision('ir', c, evidence),
);

export const ggbIccScorer = ggbScorer(
  'ggb_icc',
  'icc',
  ggbIccConfig,
  (c) => [
    { id: GGB_PROBES.rebase, command: REBASE_PROBE },
    { id: GGB_PROBES.history, command: historyCommand(c.base, c.target_file) },
    { id: GGB_PROBES.finalBlob, command: `git rev-parse --verify -q ${shellQuote(`HEAD:${c.target_file}`)}` },
  ],
  (c, evidence) => historyDecision('icc', c, evidence),
);
