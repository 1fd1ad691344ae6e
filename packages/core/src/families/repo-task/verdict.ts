import { check, verdict } from '../../scoring/result';
import type { ExecRecord, ScoreCheck, ScoreResult } from '../../scoring/types';
import type { RepoTaskConfig } from './config';
import { VERDICT_MARK } from './sandbox-scripts';
import {
  GRADER_VERDICT_KINDS,
  QUALITY_LEVELS,
  type GraderVerdict,
  type GraderVerdictKind,
  type RepoTaskOutcome,
} from '../outcome';

const failed = (kind: GraderVerdictKind, comments: string): GraderVerdict => ({
  process: false,
  result: false,
  comments,
  quality: 0,
  kind,
});

/** The verdict the grader probe printed, or why there is none (a crash, a timeout, no probe at all). */
export function readGraderVerdict(record: ExecRecord | undefined): GraderVerdict {
  if (!record) return failed('not_run', 'the grader did not run: no sandbox evidence');
  const tail = (text: string) => text.trim().split('\n').slice(-8).join('\n');
  if (record.timedOut || record.exitCode === 124 || record.exitCode === 137) {
    return failed(
      'grader_timeout',
      `the grader did not finish within its time limit${record.stderr.trim() ? `: ${tail(record.stderr)}` : ''}`,
    );
  }
  const line = record.stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(VERDICT_MARK));
  if (!line) {
    const why =
      record.exitCode === 5
        ? 'the grader could not be brought into the sandbox'
        : `the grader exited ${record.exitCode} without a verdict`;
    return failed('grader_crash', `${why}${record.stderr.trim() ? `: ${tail(record.stderr)}` : ''}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(VERDICT_MARK.length));
  } catch {
    return failed('grader_crash', 'the grader printed a verdict that is not JSON');
  }
  const v = raw as Record<string, unknown>;
  const kind = GRADER_VERDICT_KINDS.includes(v.kind as GraderVerdictKind)
    ? (v.kind as GraderVerdictKind)
    : 'grader_crash';
  if (
    typeof v.Process !== 'boolean' ||
    typeof v.Result !== 'boolean' ||
    typeof v.comments !== 'string' ||
    !QUALITY_LEVELS.includes(v.quality as 0)
  ) {
    return failed('grader_crash', `the grader printed a malformed verdict: ${line.slice(VERDICT_MARK.length, 300)}`);
  }
  if (kind !== 'graded') return failed(kind, v.comments);
  // The runner refuses Result without Process; this holds the same rule for evidence from elsewhere.
  return {
    process: v.Process,
    result: v.Process && v.Result,
    comments: v.comments,
    quality: v.quality as number,
    kind,
  };
}

/** The attempt's score from the grader's verdict: passed = Result, as GitTaskBench's task pass rate counts. */
export function repoTaskResult(config: RepoTaskConfig, grader: GraderVerdict): ScoreResult {
  const checks: ScoreCheck[] = [
    check(
      'Process',
      grader.process,
      grader.process ? 'the outputs exist and the grader could read them' : grader.comments,
    ),
    check(
      'Result',
      grader.result,
      grader.comments ||
        (grader.result ? 'the outputs meet the success criteria' : 'the outputs miss the success criteria'),
    ),
    check(
      'quality',
      grader.quality >= 0.75,
      `quality level ${grader.quality} of ${QUALITY_LEVELS.join(', ')} (the Q of the alpha value)`,
    ),
  ];
  const outcome: RepoTaskOutcome = { family: 'repo_task', ...grader, marketValueUsd: config.market_value_usd };
  return { ...verdict(grader.result, grader.result ? 1 : 0, checks), family: outcome };
}
