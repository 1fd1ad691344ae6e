import type { SandboxDriver } from '@gitbench/sandbox';
import type { AttemptResult } from './attempt-result';
import { buildFixtureRepository } from './build-fixture-repository';
import { ANSWER_COMMAND_TIMEOUT_MS } from './execute-plan';
import {
  answerIsRun,
  awaitsJudge,
  evidenceFromRecordedPrompt,
  hashTranslation,
  isBrokenOutcome,
  renderPrompt,
  workspaceTranslation,
  type AnswerMode,
  type Fixture,
} from './core-api';
import type { FixtureSnapshot } from './fixture-snapshot';
import { mapPool } from './map-pool';
import { scoreAttempt } from './score-attempt';

/** One recorded upstream score, as read from a result envelope. */
export interface RecordedScore {
  file: string;
  benchmark: string;
  fixtureId: string;
  outputMode: AnswerMode;
  passed: boolean;
  modelOutput: string | null;
  error: string | null;
  /** The rendered prompt and the raw answer, when the envelope kept its transcript. */
  recordedPrompt: string | null;
  rawAnswer: string | null;
}

export interface RescoreDisagreement {
  file: string;
  benchmark: string;
  id: string;
  outputMode: AnswerMode;
  scoringType: string;
  upstream: boolean;
  ours: boolean;
  outcome: AttemptResult['outcome'];
  /** The checks that decided our verdict. */
  checks: { check: string; ok: boolean; detail: string }[];
  upstreamError: string | null;
  output: string;
  /** The answer after mapping upstream's commit ids and workspace onto ours, when anything was mapped. */
  translated?: string;
  /** Whether our rendered prompt equals upstream's once commit ids and temporary paths are blanked. */
  promptMatches: boolean | null;
}

export interface RescoreSkip {
  file: string;
  benchmark: string;
  id: string;
  reason: string;
}

export interface TypeTally {
  compared: number;
  agree: number;
  disagree: number;
  skipped: number;
}

export interface RescoreSummary extends TypeTally {
  byType: Record<string, TypeTally>;
  disagreements: RescoreDisagreement[];
  skips: RescoreSkip[];
}

/** Commit ids and the temporary directories upstream ran in are the only legitimate differences. */
function normalizePrompt(text: string): string {
  return text
    .replace(/\b[0-9a-f]{7,40}\b/g, '<id>')
    .replace(/\/[^\s]*\/(?=[A-Za-z0-9_]+_f\d{3}\b)/g, '<dir>/')
    .replace(/\s+$/g, '');
}

/**
 * What upstream's run recorded, mapped onto our rebuilt repository through the prompt it recorded:
 * its commit ids, and (in answers that are run as commands) its temporary workspace path.
 */
function recordedRunTranslation(
  fixture: Fixture,
  snapshot: FixtureSnapshot,
  recordedPrompt: string,
): { translate: (text: string) => string } {
  const ids = hashTranslation(recordedPrompt, snapshot.commits);
  const paths = answerIsRun(fixture) ? workspaceTranslation(recordedPrompt, snapshot.repoDir) : null;
  // Paths first: a workspace path can hold a hex run that looks like a commit id.
  return { translate: (text) => ids.translate(paths ? paths.translate(text) : text) };
}

/**
 * Re-scores recorded model outputs with our scorers and compares verdicts. Answers that need a
 * sandbox run against our rebuilt repositories, with upstream's commit ids mapped onto ours through
 * the prompt upstream recorded.
 */
export async function rescoreRecorded(
  scores: readonly RecordedScore[],
  fixtures: readonly Fixture[],
  driver: SandboxDriver,
  opts: { workers?: number; labels?: Record<string, string>; onProgress?: (done: number, total: number) => void } = {},
): Promise<RescoreSummary> {
  const byKey = new Map(fixtures.map((f) => [`${f.domain}/${f.id}`, f]));
  const snapshots = new Map<string, Promise<FixtureSnapshot>>();
  const summary: RescoreSummary = {
    compared: 0,
    agree: 0,
    disagree: 0,
    skipped: 0,
    byType: {},
    disagreements: [],
    skips: [],
  };
  const tally = (type: string) => (summary.byType[type] ??= { compared: 0, agree: 0, disagree: 0, skipped: 0 });
  const skip = (s: RecordedScore, type: string, reason: string) => {
    summary.skipped++;
    tally(type).skipped++;
    summary.skips.push({ file: s.file, benchmark: s.benchmark, id: s.fixtureId, reason });
  };
  let done = 0;
  await mapPool(scores, opts.workers ?? 2, async (s) => {
    try {
      const fixture = byKey.get(`${s.benchmark}/${s.fixtureId}`);
      if (!fixture) return skip(s, 'unknown', `fixture ${s.benchmark}/${s.fixtureId} is not in the suite`);
      const type = fixture.scoring.type;
      if (type === 'llm_judge')
        return skip(s, type, 'needs a judge (llm_judge): upstream judged it with a model we do not call here');
      const raw = s.outputMode === 'json_schema' ? s.rawAnswer : (s.modelOutput ?? s.rawAnswer);
      if (raw === null || (raw.trim() === '' && s.error && !s.passed)) {
        return skip(s, type, `no model output recorded${s.error ? ` (upstream error: ${s.error.slice(0, 120)})` : ''}`);
      }
      let snap = snapshots.get(fixture.domain + '/' + fixture.id);
      if (!snap) {
        snap = buildFixtureRepository(fixture, driver, opts.labels ? { labels: opts.labels } : {});
        snapshots.set(fixture.domain + '/' + fixture.id, snap);
      }
      let snapshot: FixtureSnapshot;
      try {
        snapshot = await snap;
      } catch (err) {
        return skip(s, type, `repository could not be rebuilt: ${(err as Error).message}`);
      }
      const ourPrompt = renderPrompt(fixture, snapshot.context, s.outputMode, ANSWER_COMMAND_TIMEOUT_MS);
      const translation = recordedRunTranslation(fixture, snapshot, s.recordedPrompt ?? '');
      // Scorers that judge against upstream's own commit ids read them from the recorded prompt;
      // the rest run in our sandbox with upstream's ids mapped onto ours.
      const recordedEvidence = s.recordedPrompt ? evidenceFromRecordedPrompt(fixture, s.recordedPrompt) : null;
      const attempt = await scoreAttempt({
        fixture,
        snapshot,
        driver,
        outputMode: s.outputMode,
        prompt: s.recordedPrompt ?? ourPrompt,
        output: raw,
        ...(recordedEvidence ? { recordedEvidence } : { adaptText: translation.translate }),
        ...(opts.labels ? { labels: opts.labels } : {}),
      });
      if (isBrokenOutcome(attempt.outcome)) return skip(s, type, `${attempt.outcome}: ${attempt.error ?? ''}`);
      if (awaitsJudge(attempt.outcome)) return skip(s, type, 'needs a judge');
      summary.compared++;
      tally(type).compared++;
      if (attempt.passed === s.passed) {
        summary.agree++;
        tally(type).agree++;
        return;
      }
      summary.disagree++;
      tally(type).disagree++;
      const translated = translation.translate(attempt.scoredText);
      const d: RescoreDisagreement = {
        file: s.file,
        benchmark: s.benchmark,
        id: s.fixtureId,
        outputMode: s.outputMode,
        scoringType: type,
        upstream: s.passed,
        ours: attempt.passed,
        outcome: attempt.outcome,
        checks: attempt.checks.map((c) => ({ check: c.check, ok: c.ok, detail: c.detail })),
        upstreamError: s.error,
        output: raw.slice(0, 2000),
        promptMatches:
          s.recordedPrompt === null ? null : normalizePrompt(s.recordedPrompt) === normalizePrompt(ourPrompt),
      };
      if (translated !== attempt.scoredText) d.translated = translated.slice(0, 2000);
      summary.disagreements.push(d);
    } finally {
      opts.onProgress?.(++done, scores.length);
    }
  });
  const order = (a: { file: string; benchmark: string; id: string }, b: typeof a) =>
    `${a.file}\0${a.benchmark}\0${a.id}` < `${b.file}\0${b.benchmark}\0${b.id}` ? -1 : 1;
  summary.disagreements.sort(order);
  summary.skips.sort(order);
  return summary;
}
