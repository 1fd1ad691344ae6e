import type { SandboxDriver } from '@gitbench/sandbox';
import type { AttemptResult } from './attempt-result';
import { awaitsJudge, checkDerived, derivedExpected, isBrokenOutcome, renderPrompt, type Fixture } from './core-api';
import { ANSWER_COMMAND_TIMEOUT_MS, executePlan } from './execute-plan';
import { buildFixtureRepositories, buildFixtureRepository } from './build-fixture-repository';
import type { BuildOutcome } from './fixture-build-outcome';
import type { FixtureSnapshot } from './fixture-snapshot';
import { mapPool } from './map-pool';
import { referenceAnswer } from './reference-answer';
import { scoreAttempt } from './score-attempt';
import { judgeGgbAttempt } from './ggb-judge';

export type SelfcheckStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface SelfcheckVerdict {
  passed: boolean;
  outcome: AttemptResult['outcome'];
  /** A task family's facts for this answer (Process and Result, fidelity and line rates). */
  family?: AttemptResult['family'];
  /** The checks that did not hold (all of them for a failure); empty when everything held. */
  failing: { check: string; detail: string }[];
}

export interface FixtureSelfcheck {
  benchmark: string;
  id: string;
  status: SelfcheckStatus;
  /** Why it failed, was skipped or errored. */
  reason?: string;
  inputHash: string | null;
  /** One per run; all equal when the fixture is deterministic. */
  inputHashes: string[];
  heads: string[];
  /** The expected answer, scored: must pass. */
  reference: SelfcheckVerdict | null;
  /** Each negative answer, scored: each must fail. */
  negatives: (SelfcheckVerdict & { answer: string; why: string })[];
  /** Each alternative correct answer, scored: each must pass. */
  alternatives: (SelfcheckVerdict & { answer: string; why: string })[];
  /** Upstream's `scoring.self_check`, when the fixture has one: the expected answer derived from the repository. */
  derivedExpected?: { ok: boolean; detail: string };
}

export interface SelfcheckOptions {
  runs?: number;
  labels?: Record<string, string>;
}

function verdict(a: AttemptResult): SelfcheckVerdict {
  const failing = a.checks.filter((c) => !c.ok).map((c) => ({ check: c.check, detail: c.detail }));
  return { passed: a.passed, outcome: a.outcome, failing, ...(a.family ? { family: a.family } : {}) };
}

/**
 * Checks one fixture against itself: its repository builds to the same input hash in every run (each
 * in a fresh sandbox), its expected answer and every alternative pass its own scorer, and every
 * negative fails.
 */
export async function selfcheckFixture(
  fixture: Fixture,
  driver: SandboxDriver,
  opts: SelfcheckOptions & {
    /** The fixture built already (the suite's first run, many fixtures per sandbox); counts as run 1. */
    first?: BuildOutcome;
  } = {},
): Promise<FixtureSelfcheck> {
  const result: FixtureSelfcheck = {
    benchmark: fixture.domain,
    id: fixture.id,
    status: 'passed',
    inputHash: null,
    inputHashes: [],
    heads: [],
    reference: null,
    negatives: [],
    alternatives: [],
  };
  const snapshots: FixtureSnapshot[] = [];
  try {
    if (opts.first?.error) throw opts.first.error;
    if (opts.first) snapshots.push(opts.first.snapshot);
    // Runs one after the other, each in a sandbox of its own: the suite is already parallel across fixtures.
    while (snapshots.length < Math.max(1, opts.runs ?? 1))
      snapshots.push(await buildFixtureRepository(fixture, driver, { labels: opts.labels }));
  } catch (err) {
    return { ...result, status: 'error', reason: (err as Error).message };
  }
  result.inputHashes = snapshots.map((s) => s.inputHash);
  result.heads = snapshots.map((s) => s.head);
  result.inputHash = snapshots[0]!.inputHash;
  const unstable =
    new Set(result.inputHashes).size > 1 ? `input hash differs across ${result.inputHashes.length} runs` : null;
  // A judged fixture is still built every run: its repository (the diff the judge sees) must be as
  // reproducible as any other; only its answers cannot be scored here.
  if (fixture.scoring.type === 'llm_judge') {
    if (unstable) return { ...result, status: 'failed', reason: unstable };
    return {
      ...result,
      status: 'skipped',
      reason: 'needs a judge (llm_judge): no judge is configured for self-check; repository built',
    };
  }
  const snapshot = snapshots[0]!;
  const prompt = renderPrompt(fixture, snapshot.context, 'text', ANSWER_COMMAND_TIMEOUT_MS);
  // GitGoodBench's IR and ICC need the pairwise judge: self-check asks the scripted one. A negative
  // must not be solved (win both orderings); the reference, the original history itself, must tie or win.
  const judged = async (a: AttemptResult, reference: boolean): Promise<AttemptResult> => {
    const { attempt, judgement } = await judgeGgbAttempt({ attempt: a, ask: 'scripted' });
    if (!reference || judgement?.status !== 'scored') return attempt;
    const ok = judgement.tieOrWin;
    return {
      ...attempt,
      passed: ok,
      outcome: ok ? 'PASS' : 'FAIL',
      checks: [
        ...attempt.checks.filter((c) => c.check !== 'pairwise judge'),
        {
          check: 'pairwise judge',
          ok,
          detail:
            `reference ties or wins under the scripted ` +
            `judge: ${judgement.verdicts.map((v) => v.result).join(', ')}`,
        },
      ],
    };
  };
  const score = async (output: string, reference = false) =>
    judged(
      await scoreAttempt({
        fixture,
        snapshot,
        driver,
        outputMode: 'text',
        prompt,
        output,
        ...(opts.labels ? { labels: opts.labels } : {}),
      }),
      reference,
    );
  const reference = await score(referenceAnswer(fixture, snapshot), true);
  result.reference = verdict(reference);
  const scoreExamples = (examples: readonly { answer: string; why: string }[]) =>
    mapPool(examples, 1, async (e) => ({ answer: e.answer, why: e.why, ...verdict(await score(e.answer)) }));
  result.negatives = await scoreExamples(fixture.negatives ?? []);
  result.alternatives = await scoreExamples(fixture.alternatives ?? []);

  const problems: string[] = [];
  const derived = derivedExpected(fixture);
  if (derived) {
    const run = await executePlan(
      { answerCommands: [], probes: [{ id: 'self_check', command: derived.command }] },
      driver,
      snapshot,
      opts.labels ? { labels: opts.labels } : {},
    );
    const record = run.evidence.probes['self_check'];
    const outcome = record
      ? checkDerived(fixture, derived, record)
      : { ok: false, detail: `self_check could not run: ${run.aborted ?? 'no record'}` };
    result.derivedExpected = outcome;
    if (!outcome.ok) problems.push(outcome.detail);
  }
  if (unstable) problems.push(unstable);
  if (new Set(result.heads).size > 1) problems.push('HEAD differs across runs');
  if (isBrokenOutcome(reference.outcome))
    return { ...result, status: 'error', reason: reference.error ?? reference.outcome };
  if (awaitsJudge(reference.outcome)) return { ...result, status: 'skipped', reason: 'needs a judge' };
  if (!reference.passed)
    problems.push(
      `expected answer fails: ${result.reference.failing.map((f) => `${f.check}: ${f.detail}`).join('; ')}`,
    );
  for (const n of result.negatives)
    if (n.passed) problems.push(`negative passes: ${JSON.stringify(n.answer)} (${n.why})`);
  for (const a of result.alternatives) {
    if (!a.passed)
      problems.push(
        `alternative fails: ${JSON.stringify(a.answer)}: ${a.failing.map((f) => `${f.check}: ${f.detail}`).join('; ')}`,
      );
  }
  if (problems.length > 0) return { ...result, status: 'failed', reason: problems.join('; ') };
  return result;
}

export interface SelfcheckSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  /** Negative and alternative answers that were scored (skipped fixtures score none). */
  negativesChecked: number;
  alternativesChecked: number;
  /** Fixtures built in every run with one and the same input hash (judged ones included). */
  stableHashes: number;
  fixtures: FixtureSelfcheck[];
}

export async function selfcheckSuite(
  fixtures: readonly Fixture[],
  driver: SandboxDriver,
  opts: SelfcheckOptions & {
    workers?: number;
    onProgress?: (done: number, total: number, last: FixtureSelfcheck) => void;
  } = {},
): Promise<SelfcheckSummary> {
  let done = 0;
  // With more than one run, the first builds the whole suite the way campaign planning does (many
  // fixtures per sandbox, emptied in between) and the others build each fixture alone: equal hashes
  // across runs then also prove that the two ways build the same repositories.
  const first =
    (opts.runs ?? 1) > 1
      ? await buildFixtureRepositories(fixtures, driver, {
          sandboxes: opts.workers ?? 2,
          ...(opts.labels ? { labels: opts.labels } : {}),
        })
      : [];
  const results = await mapPool(fixtures, opts.workers ?? 2, async (f, i) => {
    const r = await selfcheckFixture(f, driver, { ...opts, ...(first[i] ? { first: first[i] } : {}) });
    opts.onProgress?.(++done, fixtures.length, r);
    return r;
  });
  const count = (s: SelfcheckStatus) => results.filter((r) => r.status === s).length;
  const sum = (pick: (r: FixtureSelfcheck) => unknown[]) => results.reduce((n, r) => n + pick(r).length, 0);
  return {
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    errors: count('error'),
    negativesChecked: sum((r) => r.negatives),
    alternativesChecked: sum((r) => r.alternatives),
    stableHashes: results.filter(
      (r) => r.inputHashes.length === Math.max(1, opts.runs ?? 1) && new Set(r.inputHashes).size === 1,
    ).length,
    fixtures: results,
  };
}
