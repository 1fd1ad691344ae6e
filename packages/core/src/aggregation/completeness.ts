import {
  ATTEMPT_STATUSES,
  attemptStatusReason,
  completenessPartOf,
  type AttemptStatus,
  type CompletenessPart,
} from '../campaign/attempt-status';

/** The campaign's safety review (Campaign.safetyReview). */
export const SAFETY_REVIEW_STATES = ['not_configured', 'pending', 'approved', 'blocked'] as const;
export type SafetyReviewState = (typeof SAFETY_REVIEW_STATES)[number];
/** States in which the safety review does not hold the campaign back. */
export const ALLOWED_SAFETY_REVIEW_STATES: readonly SafetyReviewState[] = ['not_configured', 'approved'];

export type StatusCounts = Partial<Record<AttemptStatus, number>>;

export interface CompletenessReason {
  /** An attempt status, or what else is wrong. */
  code: AttemptStatus | 'missing_attempts' | 'no_attempts_planned' | 'safety_review';
  /** Attempts concerned (1 for a campaign-level reason). */
  count: number;
  message: string;
}

export interface CompletenessPartResult {
  ok: boolean;
  reasons: CompletenessReason[];
}

export interface Completeness {
  complete: boolean;
  parts: Record<CompletenessPart, CompletenessPartResult>;
}

export function countStatuses(rows: readonly { status: AttemptStatus }[]): StatusCounts {
  const counts: StatusCounts = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return counts;
}

/**
 * The methodology's three parts of completeness. Each non-valid status counts against exactly one part
 * (see attempt-status), so the panel never reports one problem twice:
 * - targetAttempts: every planned attempt exists and finished VALID_PASS or VALID_FAIL, except those
 *   charged to the two parts below (queued, running, infrastructure failure, hash mismatch, invalid
 *   input, cancelled and missing rows all fail this part);
 * - judgeScoring: no attempt is UNSCORED (judge exhausted);
 * - safetyReview: the review is not_configured or approved, and no attempt is SAFETY_BLOCKED.
 * Takes counts so that the dashboard can feed it a `GROUP BY status` instead of rows.
 */
export function campaignCompleteness(input: {
  plannedAttempts: number;
  statusCounts: StatusCounts;
  safetyReview: string;
}): Completeness {
  const parts: Record<CompletenessPart, CompletenessPartResult> = {
    targetAttempts: { ok: true, reasons: [] },
    judgeScoring: { ok: true, reasons: [] },
    safetyReview: { ok: true, reasons: [] },
  };
  const fail = (part: CompletenessPart, reason: CompletenessReason) => {
    parts[part].ok = false;
    parts[part].reasons.push(reason);
  };

  let recorded = 0;
  for (const status of ATTEMPT_STATUSES) {
    const count = input.statusCounts[status] ?? 0;
    recorded += count;
    const part = completenessPartOf(status);
    if (count > 0 && part !== null) {
      fail(part, { code: status, count, message: `${count} attempt(s): ${attemptStatusReason(status)}.` });
    }
  }
  if (input.plannedAttempts <= 0) {
    fail('targetAttempts', { code: 'no_attempts_planned', count: 1, message: 'The campaign plans no attempts.' });
  } else if (recorded < input.plannedAttempts) {
    const missing = input.plannedAttempts - recorded;
    fail('targetAttempts', {
      code: 'missing_attempts',
      count: missing,
      message: `${missing} planned attempt(s) have no record.`,
    });
  }
  if (!(ALLOWED_SAFETY_REVIEW_STATES as readonly string[]).includes(input.safetyReview)) {
    fail('safetyReview', {
      code: 'safety_review',
      count: 1,
      message:
        `The safety review is ${input.safetyReview.replace(/_/g, ' ')}; ` + `it must be approved (or not configured).`,
    });
  }
  return { complete: Object.values(parts).every((p) => p.ok), parts };
}

/** Default rankings take complete, non-legacy campaigns only. */
export function isRankingEligible(campaign: { complete: boolean; legacy: boolean }): boolean {
  return campaign.complete && !campaign.legacy;
}
