import { check, verdict } from '../../scoring/result';
import type { ExecRecord, ScoreCheck, ScoreResult } from '../../scoring/types';
import { parseGistEvidence, type GistEvidence } from './evidence';
import { lineExecution, lineExistence } from './lines';
import type { GistFailure, GistOutcome } from '../outcome';

export function gistOutcome(record: ExecRecord | undefined): { outcome: GistOutcome; evidence: GistEvidence | null } {
  const empty = {
    lineExecutionRate: null,
    executedLines: null,
    executableLines: null,
    lineExistenceRate: null,
    foundLines: null,
    countedLines: null,
  };
  const fail = (failure: GistFailure, detail: string): GistOutcome => ({
    family: 'gist',
    fidelity: false,
    failure,
    detail,
    ...empty,
  });
  if (!record)
    return { outcome: fail('not_evaluated', 'the gist was not evaluated: no sandbox evidence'), evidence: null };
  if (record.timedOut)
    return {
      outcome: fail('not_evaluated', 'the gist evaluation did not finish within its time limit'),
      evidence: null,
    };
  const read = parseGistEvidence(record.stdout);
  if (!read.ok)
    return {
      outcome: fail(
        'not_evaluated',
        `${read.problem}${record.stderr.trim() ? `: ${record.stderr.trim().slice(-400)}` : ''}`,
      ),
      evidence: null,
    };
  const e = read.evidence;
  if (e.evaluatorError)
    return {
      outcome: fail(
        'not_evaluated',
        `the gist evaluator failed: ${e.evaluatorError.trim().split('\n').slice(-2).join(' ')}`,
      ),
      evidence: e,
    };
  if (e.originalProblem) return { outcome: fail('not_evaluated', e.originalProblem), evidence: e };
  const existence = lineExistence(e);
  const execution = lineExecution(e);
  const rates = {
    lineExecutionRate: execution?.rate ?? null,
    executedLines: execution?.executed ?? null,
    executableLines: execution?.executable ?? null,
    lineExistenceRate: existence?.rate ?? null,
    foundLines: existence?.found ?? null,
    countedLines: existence?.total ?? null,
  };
  const [failure, detail] = classify(e);
  return { outcome: { family: 'gist', fidelity: failure === null, failure, detail, ...rates }, evidence: e };
}

function classify(e: GistEvidence): [GistFailure | null, string] {
  const gist = e.gist;
  const detail = e.fidelity?.detail ?? '';
  if (!gist?.exists) return ['no_gist', `no gist file at ${gist?.path ?? 'the expected path'}`];
  if (gist.syntaxError) return ['syntax_error', `the gist does not parse: ${gist.syntaxError}`];
  if (gist.testsMissing?.length)
    return ['missing_test', `the gist lacks the command's test(s): ${gist.testsMissing.join(', ')}`];
  if (e.run?.borrowed?.length) return ['import_error', detail];
  if (!e.fidelity?.ok) return ['runtime_error', detail];
  return [null, detail];
}

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);

/** passed = execution fidelity; the two line rates are recorded beside it. */
export function gistResult(record: ExecRecord | undefined): ScoreResult {
  const { outcome } = gistOutcome(record);
  const checks: ScoreCheck[] = [
    check('execution fidelity', outcome.fidelity, outcome.detail),
    check(
      'line execution rate',
      outcome.lineExecutionRate !== null,
      outcome.lineExecutionRate === null
        ? 'not measured: the gist did not run'
        : `${percent(outcome.lineExecutionRate)} of executable lines ` +
            `ran (${outcome.executedLines}/${outcome.executableLines})`,
    ),
    check(
      'line existence rate',
      outcome.lineExistenceRate !== null,
      outcome.lineExistenceRate === null
        ? 'not measured: no gist file that parses'
        : `${percent(outcome.lineExistenceRate)} of lines found in ` +
            `the original (${outcome.foundLines}/${outcome.countedLines})`,
    ),
  ];
  return { ...verdict(outcome.fidelity, outcome.fidelity ? 1 : 0, checks), family: outcome };
}
