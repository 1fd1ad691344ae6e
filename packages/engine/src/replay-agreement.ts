import type { AnswerMode } from './core-api';
import { isScoredEntry, whyNotScored, type SuiteRunEntry } from './run-suite';

export interface AgreementTally {
  compared: number;
  agreed: number;
  disagreed: number;
  skipped: number;
}

interface EntryRef {
  benchmark: string;
  id: string;
  outputMode: AnswerMode;
  trial: number;
  scoringType: string;
}

export interface ReplayDisagreement extends EntryRef {
  recorded: boolean;
  ours: boolean;
  /** The check that decided our verdict, or the first one that did not hold. */
  why: string;
  output: string;
  /** Upstream commit ids the replayed answer named, mapped onto this run's repository. */
  commitIdsMapped: boolean;
}

export interface ReplaySkip extends EntryRef {
  reason: string;
}

export interface ReplayAgreement extends AgreementTally {
  byType: Record<string, AgreementTally>;
  disagreements: ReplayDisagreement[];
  skips: ReplaySkip[];
}

/**
 * How the verdicts of a replayed run compare with the verdicts recorded next to the replayed answers.
 * Only quality outcomes are compared; an attempt with no verdict of ours (unscored judge fixture,
 * sandbox failure, not run) or no usable recording is skipped with its reason, never counted as agreement.
 */
export function replayAgreement(entries: readonly SuiteRunEntry[]): ReplayAgreement {
  const summary: ReplayAgreement = {
    compared: 0,
    agreed: 0,
    disagreed: 0,
    skipped: 0,
    byType: {},
    disagreements: [],
    skips: [],
  };
  const tally = (type: string) => (summary.byType[type] ??= { compared: 0, agreed: 0, disagreed: 0, skipped: 0 });
  for (const e of entries) {
    const ref: EntryRef = {
      benchmark: e.fixture.domain,
      id: e.fixture.id,
      outputMode: e.outputMode,
      trial: e.trial,
      scoringType: e.fixture.scoring.type,
    };
    const skip = (reason: string) => {
      summary.skipped++;
      tally(ref.scoringType).skipped++;
      summary.skips.push({ ...ref, reason });
    };
    const recorded = e.response?.route.replay?.recordedVerdict;
    if (!isScoredEntry(e)) {
      skip(whyNotScored(e));
      continue;
    }
    if (!recorded) {
      skip('no verdict recorded with the replayed answer');
      continue;
    }
    if (!recorded.passed && recorded.error && e.attempt.output.trim() === '') {
      skip(`no model output recorded (upstream error: ${recorded.error.slice(0, 120)})`);
      continue;
    }
    summary.compared++;
    tally(ref.scoringType).compared++;
    if (e.attempt.passed === recorded.passed) {
      summary.agreed++;
      tally(ref.scoringType).agreed++;
      continue;
    }
    summary.disagreed++;
    tally(ref.scoringType).disagreed++;
    const deciding = e.attempt.checks.find((c) => c.ok === e.attempt.passed);
    summary.disagreements.push({
      ...ref,
      recorded: recorded.passed,
      ours: e.attempt.passed,
      why: deciding ? `${deciding.check}: ${deciding.detail}` : 'no check recorded',
      output: e.attempt.output.slice(0, 2000),
      commitIdsMapped: e.response?.flags.includes('replay_commit_ids_mapped') ?? false,
    });
  }
  const order = (a: EntryRef, b: EntryRef) =>
    `${a.outputMode}\0${a.benchmark}\0${a.id}\0${a.trial}` < `${b.outputMode}\0${b.benchmark}\0${b.id}\0${b.trial}`
      ? -1
      : 1;
  summary.disagreements.sort(order);
  summary.skips.sort(order);
  return summary;
}
