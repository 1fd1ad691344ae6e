import { rawOutputsVisible, releasedCampaignWhere } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import { getTrajectoryView, type TrajectoryView } from './trajectory';

/** An attempt on one side of the comparison: who ran it, how it ended, and its step heads. */
export interface CompareSide {
  attemptId: string;
  campaignId: string;
  campaignName: string;
  modelId: string;
  trial: number;
  status: string;
  view: TrajectoryView;
}

export interface CompareCandidate {
  id: string;
  campaignName: string;
  modelId: string;
  trial: number;
  status: string;
  steps: number;
}

/**
 * What the caller may open. Raw trajectory steps reach viewers only from published campaigns
 * (after their safety review; see trajectoryHidden); members and admins see every campaign's.
 */
export interface CompareVisibility {
  onlyPublished: boolean;
}

const ATTEMPT_SELECT = {
  id: true,
  campaignId: true,
  modelId: true,
  trial: true,
  status: true,
  domain: true,
  fixtureId: true,
  campaign: { select: { name: true, publishedAt: true, safetyReview: true } },
} as const;

async function side(
  db: Db,
  attemptId: string,
): Promise<(CompareSide & { domain: string; fixtureId: string; published: boolean }) | null> {
  const [a, view] = await Promise.all([
    db.attempt.findUnique({ where: { id: attemptId }, select: ATTEMPT_SELECT }),
    getTrajectoryView(db, attemptId),
  ]);
  if (!a || !view) return null;
  return {
    attemptId: a.id,
    campaignId: a.campaignId,
    campaignName: a.campaign.name,
    modelId: a.modelId,
    trial: a.trial,
    status: a.status,
    domain: a.domain,
    fixtureId: a.fixtureId,
    published: rawOutputsVisible('viewer', a.campaign),
    view,
  };
}

/**
 * Other attempts of the same fixture that have a trajectory, newest first: from any campaign, or with
 * `onlyPublished` from published campaigns only, so a viewer is never offered one they may not open.
 */
export async function compareCandidates(
  db: Db,
  attempt: { id: string; domain: string; fixtureId: string },
  visibility: CompareVisibility,
  limit = 100,
): Promise<CompareCandidate[]> {
  const rows = await db.attempt.findMany({
    where: {
      domain: attempt.domain,
      fixtureId: attempt.fixtureId,
      id: { not: attempt.id },
      trajectories: { some: {} },
      ...(visibility.onlyPublished ? { campaign: releasedCampaignWhere() } : {}),
    },
    select: { ...ATTEMPT_SELECT, trajectories: { select: { steps: true }, orderBy: { tryNumber: 'desc' }, take: 1 } },
    orderBy: [{ finishedAt: { sort: 'desc', nulls: 'first' } }, { id: 'asc' }],
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    campaignName: r.campaign.name,
    modelId: r.modelId,
    trial: r.trial,
    status: r.status,
    steps: r.trajectories[0]?.steps ?? 0,
  }));
}

/**
 * Both sides of a comparison and the picker's candidates, as far as `visibility` lets the caller see.
 * Without `otherId`, the other side is the first candidate whose verdict differs (a pass beside a fail
 * says the most), else the first. The candidates, and so that default, come only from campaigns the
 * caller may open: were they not, a viewer would be refused the whole page for a default they never
 * chose while a published attempt stood beside it. `{ hidden: true }` when the caller may not open A,
 * or the B they named: that is refused, not replaced.
 */
export async function getTrajectoryComparison(
  db: Db,
  attemptId: string,
  otherId: string | undefined,
  visibility: CompareVisibility,
) {
  const a = await side(db, attemptId);
  if (!a) return null;
  if (visibility.onlyPublished && !a.published) return { hidden: true } as const;
  const candidates = await compareCandidates(
    db,
    { id: a.attemptId, domain: a.domain, fixtureId: a.fixtureId },
    visibility,
  );
  const chosen =
    otherId ??
    (candidates.find((c) => (c.status === 'VALID_PASS') !== (a.status === 'VALID_PASS')) ?? candidates[0])?.id;
  const b = chosen ? await side(db, chosen) : null;
  if (visibility.onlyPublished && b && !b.published) return { hidden: true } as const;
  const sameFixture = !!b && b.domain === a.domain && b.fixtureId === a.fixtureId;
  return { hidden: false, a, b, sameFixture, candidates } as const;
}
