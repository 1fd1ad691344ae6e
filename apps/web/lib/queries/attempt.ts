import {
  parseAttemptEvidence,
  rawOutputsVisible,
  type AttemptEvidence as EvidenceRecord,
  type Role,
} from '@gitbench/core';
import type { Db } from '@gitbench/db';

/** A try's evidence record parsed, or why it could not be (shown on the page instead of guessed at). */
export type TryEvidence = { ok: true; record: EvidenceRecord } | { ok: false; error: string } | null;

export function tryEvidence(stored: unknown): TryEvidence {
  if (stored === null || stored === undefined) return null;
  try {
    return { ok: true, record: parseAttemptEvidence(stored) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/**
 * Everything recorded about one attempt that `role` may read: the row, every try (latest first), judge
 * results and its fixture. While the campaign's raw outputs are hidden from that role, the tries carry
 * no evidence and no error message is returned, only its class: messages quote the model's answer (an
 * imported upstream failure reads `Expected X, got '<the whole answer>'`).
 */
export async function getAttemptEvidence(db: Db, attemptId: string, role: Role) {
  const attempt = await db.attempt.findUnique({
    where: { id: attemptId },
    include: {
      campaign: {
        select: {
          id: true,
          name: true,
          legacy: true,
          trials: true,
          status: true,
          publishedAt: true,
          safetyReview: true,
        },
      },
      target: { select: { modelId: true, baseModel: true, reasoningEffort: true, outputMode: true, profile: true } },
      fixtureSnapshot: {
        select: {
          id: true,
          domain: true,
          fixtureId: true,
          difficulty: true,
          tags: true,
          definition: true,
          scoringType: true,
          inputHash: true,
          repoState: true,
          setupLog: true,
        },
      },
      tries: { orderBy: { tryNumber: 'desc' } },
      judgeResults: { orderBy: { createdAt: 'desc' } },
    },
  });
  if (!attempt) return null;
  const rawHidden = !rawOutputsVisible(role, attempt.campaign);
  if (rawHidden) {
    attempt.errorMessage = null;
    attempt.tries = attempt.tries.map((t) => ({ ...t, errorMessage: null, evidence: null }));
  }
  // The other trials of the same series, so the page can step between them.
  const siblings = await db.attempt.findMany({
    where: { campaignId: attempt.campaignId, targetId: attempt.targetId, fixtureSnapshotId: attempt.fixtureSnapshotId },
    select: { id: true, trial: true, status: true },
    orderBy: { trial: 'asc' },
  });
  return { attempt, siblings, rawHidden };
}
/**
 * What the attempt page shows: the attempt with its tries, the other trials of its series, and whether raw outputs are
 * hidden.
 */
export type AttemptPageData = NonNullable<Awaited<ReturnType<typeof getAttemptEvidence>>>;
/** One attempt as the page reads it (its campaign, target, fixture snapshot, tries and judge results). */
export type AttemptRecord = AttemptPageData['attempt'];
