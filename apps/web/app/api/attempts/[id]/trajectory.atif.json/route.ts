import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/auth/api-route';
import { getAtifExport } from '@/lib/queries/trajectory';
import { services } from '@/lib/services';
import { noTrajectory, parseTrajectoryRequest, trajectoryQuery, trajectoryHidden } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/** The attempt's trajectory (latest try unless `?try=`) as ATIF v1.4 JSON, downloaded as a file. */
export const GET = apiRoute<{ id: string }>('viewer', async ({ request, params, actor }) => {
  const req = parseTrajectoryRequest(params.id, request.nextUrl, trajectoryQuery);
  if (!req.ok) return req.response;
  const hidden = await trajectoryHidden(services().db, actor, req.id);
  if (hidden) return hidden;
  const atif = await getAtifExport(services().db, req.id, req.query.try);
  if (!atif) return noTrajectory(req.id);
  return new NextResponse(JSON.stringify(atif), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${req.id}.atif.json"` },
  });
});
