import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/auth/api-route';
import { searchTrajectory } from '@/lib/queries/trajectory';
import { services } from '@/lib/services';
import { noTrajectory, parseTrajectoryRequest, searchQuery, trajectoryHidden } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/** Steps whose message, reasoning, arguments, output, diff or notes contain `q` (case-insensitive). */
export const GET = apiRoute<{ id: string }>('viewer', async ({ request, params, actor }) => {
  const req = parseTrajectoryRequest(params.id, request.nextUrl, searchQuery);
  if (!req.ok) return req.response;
  const hidden = await trajectoryHidden(services().db, actor, req.id);
  if (hidden) return hidden;
  const found = await searchTrajectory(services().db, req.id, req.query.q, req.query.try);
  return found ? NextResponse.json({ query: req.query.q, ...found }) : noTrajectory(req.id);
});
