import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/auth/api-route';
import { getStepRange, getStepsAfter } from '@/lib/queries/trajectory';
import { services } from '@/lib/services';
import { MAX_RANGE, noTrajectory, parseTrajectoryRequest, rangeQuery, trajectoryHidden } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/**
 * `?from=&to=`: the steps of that range, bodies cut to previews (at most MAX_RANGE steps).
 * `?after=N`: the heads of the steps after index N and whether the loop still runs: what the
 * viewer polls while an attempt is live.
 */
export const GET = apiRoute<{ id: string }>('viewer', async ({ request, params, actor }) => {
  const req = parseTrajectoryRequest(params.id, request.nextUrl, rangeQuery);
  if (!req.ok) return req.response;
  const hidden = await trajectoryHidden(services().db, actor, req.id);
  if (hidden) return hidden;
  const { from, to, after, try: tryNumber } = req.query;
  const db = services().db;
  if (after !== undefined) {
    const live = await getStepsAfter(db, req.id, after, tryNumber);
    return live ? NextResponse.json(live, { headers: { 'cache-control': 'no-store' } }) : noTrajectory(req.id);
  }
  const end = Math.min(to ?? from + MAX_RANGE, from + MAX_RANGE);
  const steps = await getStepRange(db, req.id, { from, to: end, ...(tryNumber !== undefined ? { tryNumber } : {}) });
  return steps ? NextResponse.json({ from, to: end, steps }) : noTrajectory(req.id);
});
