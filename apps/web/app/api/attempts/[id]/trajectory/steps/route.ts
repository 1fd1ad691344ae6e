import { NextResponse } from 'next/server';
import { getStepRange, getStepsAfter } from '@/lib/queries/trajectory';
import { MAX_RANGE, noTrajectory, rangeQuery, trajectoryRoute } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/**
 * `?from=&to=`: the steps of that range, bodies cut to previews (at most MAX_RANGE steps).
 * `?after=N`: the heads of the steps after index N and whether the loop still runs: what the
 * viewer polls while an attempt is live.
 */
export const GET = trajectoryRoute(rangeQuery, async ({ id, query, db }) => {
  const { from, to, after, try: tryNumber } = query;
  if (after !== undefined) {
    const live = await getStepsAfter(db, id, after, tryNumber);
    return live ? NextResponse.json(live, { headers: { 'cache-control': 'no-store' } }) : noTrajectory(id);
  }
  const end = Math.min(to ?? from + MAX_RANGE, from + MAX_RANGE);
  const steps = await getStepRange(db, id, { from, to: end, ...(tryNumber !== undefined ? { tryNumber } : {}) });
  return steps ? NextResponse.json({ from, to: end, steps }) : noTrajectory(id);
});
