import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/auth/api-route';
import { getTrajectoryView } from '@/lib/queries/trajectory';
import { services } from '@/lib/services';
import { noTrajectory, parseTrajectoryRequest, trajectoryQuery, trajectoryHidden } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/** The trajectory's counters, jump targets and the head of every step (no bodies). */
export const GET = apiRoute<{ id: string }>('viewer', async ({ request, params, actor }) => {
  const req = parseTrajectoryRequest(params.id, request.nextUrl, trajectoryQuery);
  if (!req.ok) return req.response;
  const hidden = await trajectoryHidden(services().db, actor, req.id);
  if (hidden) return hidden;
  const view = await getTrajectoryView(services().db, req.id, req.query.try);
  return view ? NextResponse.json(view) : noTrajectory(req.id);
});
