/**
 * Outcome classes of an Attempt. The names match the Prisma `AttemptStatus` enum so rows can be passed
 * through without mapping.
 *
 * Only VALID_PASS and VALID_FAIL are quality outcomes: they enter every denominator. Everything else
 * says why an attempt produced no evidence about the model, and each such status is charged to exactly
 * one of the three parts of campaign completeness, so the completeness panel can say which part failed
 * and why without double counting.
 */
export const ATTEMPT_STATUSES = [
  'QUEUED',
  'RUNNING',
  'VALID_PASS',
  'VALID_FAIL',
  'INFRA_FAILURE',
  'UNSCORED',
  'HASH_MISMATCH',
  'INVALID_INPUT',
  'SAFETY_BLOCKED',
  'CANCELLED',
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export const VALID_ATTEMPT_STATUSES = ['VALID_PASS', 'VALID_FAIL'] as const;
export type ValidAttemptStatus = (typeof VALID_ATTEMPT_STATUSES)[number];

/** Not yet decided: the attempt will still change. */
export const PENDING_ATTEMPT_STATUSES = ['QUEUED', 'RUNNING'] as const;

/** The three parts of completeness named by the methodology. */
export const COMPLETENESS_PARTS = ['targetAttempts', 'judgeScoring', 'safetyReview'] as const;
export type CompletenessPart = (typeof COMPLETENESS_PARTS)[number];

interface StatusClass {
  /** Enters quality denominators. */
  valid: boolean;
  /** No further automatic change; only an explicit retry may re-queue it. */
  terminal: boolean;
  /** Which completeness part an attempt in this status fails; null for valid outcomes. */
  blocks: CompletenessPart | null;
  /** The model was called and answered, so a missing cost means "unknown", not "nothing spent". */
  modelAnswered: boolean;
  /** Short words for the completeness panel and the methodology page. */
  reason: string;
}

const STATUS_CLASSES: Record<AttemptStatus, StatusClass> = {
  QUEUED: { valid: false, terminal: false, blocks: 'targetAttempts', modelAnswered: false, reason: 'not started yet' },
  RUNNING: { valid: false, terminal: false, blocks: 'targetAttempts', modelAnswered: false, reason: 'still running' },
  VALID_PASS: { valid: true, terminal: true, blocks: null, modelAnswered: true, reason: 'passed' },
  VALID_FAIL: {
    valid: true,
    terminal: true,
    blocks: null,
    modelAnswered: true,
    reason: 'failed (counted against the model)',
  },
  INFRA_FAILURE: {
    valid: false,
    terminal: true,
    blocks: 'targetAttempts',
    modelAnswered: false,
    reason: 'infrastructure failure (transport, exhausted provider retries, sandbox)',
  },
  // The model answered but the judge could not give a verdict: a judging problem, not a target one.
  UNSCORED: {
    valid: false,
    terminal: true,
    blocks: 'judgeScoring',
    modelAnswered: true,
    reason: 'judge scoring exhausted',
  },
  HASH_MISMATCH: {
    valid: false,
    terminal: true,
    blocks: 'targetAttempts',
    modelAnswered: false,
    reason: 'fixture input hash differs from the planned snapshot',
  },
  INVALID_INPUT: {
    valid: false,
    terminal: true,
    blocks: 'targetAttempts',
    modelAnswered: false,
    reason: 'invalid fixture input',
  },
  SAFETY_BLOCKED: {
    valid: false,
    terminal: true,
    blocks: 'safetyReview',
    modelAnswered: true,
    reason: 'blocked by safety review',
  },
  CANCELLED: { valid: false, terminal: true, blocks: 'targetAttempts', modelAnswered: false, reason: 'cancelled' },
};

export function isAttemptStatus(value: string): value is AttemptStatus {
  return (ATTEMPT_STATUSES as readonly string[]).includes(value);
}

/** VALID_PASS or VALID_FAIL: the only statuses that enter quality denominators. */
export function isValidOutcome(status: AttemptStatus): status is ValidAttemptStatus {
  return STATUS_CLASSES[status].valid;
}

export function isTerminalStatus(status: AttemptStatus): boolean {
  return STATUS_CLASSES[status].terminal;
}

/** True for every status except the two valid outcomes: such an attempt keeps its campaign incomplete. */
export function makesCampaignIncomplete(status: AttemptStatus): boolean {
  return STATUS_CLASSES[status].blocks !== null;
}

export function completenessPartOf(status: AttemptStatus): CompletenessPart | null {
  return STATUS_CLASSES[status].blocks;
}

/** Whether a null cost on an attempt in this status means an unknown price (flag) rather than no call. */
export function modelAnswered(status: AttemptStatus): boolean {
  return STATUS_CLASSES[status].modelAnswered;
}

export function attemptStatusReason(status: AttemptStatus): string {
  return STATUS_CLASSES[status].reason;
}
