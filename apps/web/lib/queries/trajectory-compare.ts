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

const ATTEMPT_SELECT = { id: true, campaignId: true, modelId: true, trial: true, status: true, domain: true, fixtureId: true, campaign: { select: { name: true } } } as const;

async function side(db: Db, attemptId: string): Promise<(CompareSide & { domain: string; fixtureId: string }) | null> {
  const [a, view] = await Promise.all([db.attempt.findUnique({ where: { id: attemptId }, select: ATTEMPT_SELECT }), getTrajectoryView(db, attemptId)]);
  if (!a || !view) return null;
  return { attemptId: a.id, campaignId: a.campaignId, campaignName: a.campaign.name, modelId: a.modelId, trial: a.trial, status: a.status, domain: a.domain, fixtureId: a.fixtureId, view };
}

/** Other attempts of the same fixture (any campaign) that have a trajectory, newest first. */
export async function compareCandidates(db: Db, attempt: { id: string; domain: string; fixtureId: string }, limit = 100): Promise<CompareCandidate[]> {
  const rows = await db.attempt.findMany({
    where: { domain: attempt.domain, fixtureId: attempt.fixtureId, id: { not: attempt.id }, trajectories: { some: {} } },
    select: { ...ATTEMPT_SELECT, trajectories: { select: { steps: true }, orderBy: { tryNumber: 'desc' }, take: 1 } },
    orderBy: [{ finishedAt: { sort: 'desc', nulls: 'first' } }, { id: 'asc' }],
    take: limit,
  });
  return rows.map((r) => ({ id: r.id, campaignName: r.campaign.name, modelId: r.modelId, trial: r.trial, status: r.status, steps: r.trajectories[0]?.steps ?? 0 }));
}

/**
 * Both sides of a comparison and the picker's candidates. Without `otherId`, the other side is the
 * first candidate whose verdict differs (a pass beside a fail says the most), else the first.
 */
export async function getTrajectoryComparison(db: Db, attemptId: string, otherId: string | undefined) {
  const a = await side(db, attemptId);
  if (!a) return null;
  const candidates = await compareCandidates(db, { id: a.attemptId, domain: a.domain, fixtureId: a.fixtureId });
  const chosen = otherId ?? (candidates.find((c) => (c.status === 'VALID_PASS') !== (a.status === 'VALID_PASS')) ?? candidates[0])?.id;
  const b = chosen ? await side(db, chosen) : null;
  const sameFixture = !!b && b.domain === a.domain && b.fixtureId === a.fixtureId;
  return { a, b, sameFixture, candidates };
}
