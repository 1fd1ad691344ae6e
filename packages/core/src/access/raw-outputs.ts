import { roleAtLeast, type Role } from './roles';

/** What decides whether a campaign's raw outputs have been released to viewers. */
export interface CampaignPublication {
  publishedAt: Date | string | null;
  safetyReview: string;
}

/**
 * Raw outputs (prompt, answer, transcript, command output, and error messages, which may quote the
 * answer) reach viewers only from a campaign that is published. Members and admins, who review, always
 * see them.
 */
export function rawOutputsVisible(role: Role, campaign: CampaignPublication): boolean {
  return roleAtLeast(role, 'member') || campaign.publishedAt !== null;
}
