import { NextResponse } from 'next/server';
import { z } from 'zod';
import { apiRoute } from '@/lib/auth/api-route';
import { getStepPart } from '@/lib/queries/trajectory';
import { services } from '@/lib/services';
import { parseTrajectoryRequest, partQuery, trajectoryHidden } from '@/lib/trajectory/http';
import { parseStepPart } from '@/lib/trajectory/view-model';

export const dynamic = 'force-dynamic';

/** One part of one step whole (`?part=output&callId=...`, `?part=diff`, ...): the viewer's "show all". */
export const GET = apiRoute<{ id: string; index: string }>('viewer', async ({ request, params, actor }) => {
  const req = parseTrajectoryRequest(params.id, request.nextUrl, partQuery);
  if (!req.ok) return req.response;
  const hidden = await trajectoryHidden(services().db, actor, req.id);
  if (hidden) return hidden;
  const index = z.coerce.number().int().nonnegative().safeParse(params.index);
  const part = parseStepPart(req.query.part, req.query.callId ?? null);
  if (!index.success || !part) return NextResponse.json({ error: 'Say which step and which part (and callId for an output or arguments).' }, { status: 400 });
  const text = await getStepPart(services().db, req.id, index.data, part, req.query.try);
  if (text === null) return NextResponse.json({ error: `step ${index.data} of attempt ${req.id} has no such part` }, { status: 404 });
  return new NextResponse(text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
});
