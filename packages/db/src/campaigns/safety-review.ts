import { ALLOWED_SAFETY_REVIEW_STATES, parseAttemptEvidence, reviewOutput, type SafetyReviewer } from '@gitbench/core';
import type { Db } from '../client';

const BATCH = 500;
const UNPUBLISHED = { publishedAt: null, publishedBy: null } as const;
/** Attempts whose model answered: their raw output is what the review reads. */
const ANSWERED = ['VALID_PASS', 'VALID_FAIL', 'UNSCORED'] as const;

/**
 * Runs the configured reviewer over a finished campaign's raw outputs (each attempt's latest try), in
 * batches: an output that breaks a rule makes its attempt SAFETY_BLOCKED, saying which rules (never
 * the matched text), and the campaign's review becomes blocked; none, approved. Only a pending review
 * is run; without a reviewer it stays as it is (not_configured, or pending for a person to decide).
 */
export async function runSafetyReview(
  db: Db,
  campaignId: string,
  reviewer: SafetyReviewer,
): Promise<{ reviewed: number; blocked: number } | null> {
  if (reviewer.kind === 'off') return null;
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { safetyReview: true } });
  if (campaign?.safetyReview !== 'pending') return null;
  let reviewed = 0;
  let blocked = 0;
  let after = '';
  for (;;) {
    const attempts = await db.attempt.findMany({
      where: { campaignId, status: { in: [...ANSWERED] }, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true, tries: { orderBy: { tryNumber: 'desc' }, take: 1, select: { evidence: true } } },
    });
    if (attempts.length === 0) break;
    after = attempts.at(-1)!.id;
    for (const a of attempts) {
      reviewed++;
      let output: string | null = null;
      try {
        const evidence = a.tries[0]?.evidence ? parseAttemptEvidence(a.tries[0].evidence) : null;
        output = evidence?.output ?? null;
      } catch {
        // A record this version cannot parse is still read: its output field, else all of it.
        const raw = a.tries[0]?.evidence as { output?: unknown } | null | undefined;
        output = typeof raw?.output === 'string' ? raw.output : JSON.stringify(raw ?? null);
      }
      const findings = reviewOutput(output, reviewer.rules);
      if (findings.length === 0) continue;
      blocked++;
      await db.attempt.update({
        where: { id: a.id },
        data: {
          status: 'SAFETY_BLOCKED',
          errorClass: 'safety_blocked',
          errorMessage:
            `Blocked by the safety review: the ` +
            `output ${findings.map((f) => `${f.reason} (${f.rule})`).join('; ')}.`,
        },
      });
    }
  }
  await db.campaign.updateMany({
    where: { id: campaignId, safetyReview: 'pending' },
    data: blocked > 0 ? { safetyReview: 'blocked', ...UNPUBLISHED } : { safetyReview: 'approved' },
  });
  return { reviewed, blocked };
}

/**
 * A person's decision on a campaign's review (members and admins), overriding the reviewer's. Blocking
 * a published campaign unpublishes it: what viewers see must have passed the review as it stands.
 */
export async function decideSafetyReview(
  db: Db,
  campaignId: string,
  decision: 'approved' | 'blocked',
): Promise<boolean> {
  const { count } = await db.campaign.updateMany({
    where: { id: campaignId, legacy: false },
    data: decision === 'blocked' ? { safetyReview: decision, ...UNPUBLISHED } : { safetyReview: decision },
  });
  return count === 1;
}

export type PublishResult = { ok: true } | { ok: false; status: 404 | 409; error: string };

/**
 * Publishing shows a campaign's raw outputs to viewers. Only a finished campaign whose review allows
 * it (approved, or no reviewer configured) can be published.
 */
export async function publishCampaign(db: Db, campaignId: string, by: string, publish = true): Promise<PublishResult> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { status: true, safetyReview: true },
  });
  if (!campaign) return { ok: false, status: 404, error: 'No such campaign.' };
  if (publish) {
    if (campaign.status === 'PLANNING' || campaign.status === 'RUNNING')
      return {
        ok: false,
        status: 409,
        error: 'The campaign is still running; publish it once it has finished and been reviewed.',
      };
    if (!(ALLOWED_SAFETY_REVIEW_STATES as readonly string[]).includes(campaign.safetyReview)) {
      return {
        ok: false,
        status: 409,
        error:
          `The safety review is ${campaign.safetyReview.replace(/_/g, ' ')}; ` +
          `it must be approved before the campaign is published.`,
      };
    }
  }
  await db.campaign.update({
    where: { id: campaignId },
    data: publish ? { publishedAt: new Date(), publishedBy: by } : UNPUBLISHED,
  });
  return { ok: true };
}
