import { ALLOWED_SAFETY_REVIEW_STATES } from '../aggregation/completeness';
import { roleAtLeast, type Role } from './roles';

/** What decides whether a campaign's raw outputs have been released to viewers. */
export interface CampaignPublication {
  publishedAt: Date | string | null;
  safetyReview: string;
}

/**
 * Raw outputs (prompt, answer, transcript, command output, and error messages, which may quote the
 * answer) reach viewers only from a campaign that is published and whose safety review allows it (a
 * review can change after publication; reads check both). Members and admins, who review, always see them.
 */
export function rawOutputsVisible(role: Role, campaign: CampaignPublication): boolean {
  return roleAtLeast(role, 'member') || campaignReleased(campaign);
}

/**
 * Published, and its safety review still allows it: what viewers may open the raw outputs of, and, with
 * the public leaderboard on, the only campaigns whose aggregates anonymous visitors see.
 */
export function campaignReleased(campaign: CampaignPublication): boolean {
  return (
    campaign.publishedAt !== null && (ALLOWED_SAFETY_REVIEW_STATES as readonly string[]).includes(campaign.safetyReview)
  );
}

/** The same rule as a Prisma filter on Campaign, for lists that must offer viewers only what they may open. */
export function releasedCampaignWhere(): { publishedAt: { not: null }; safetyReview: { in: string[] } } {
  return { publishedAt: { not: null }, safetyReview: { in: [...ALLOWED_SAFETY_REVIEW_STATES] } };
}
