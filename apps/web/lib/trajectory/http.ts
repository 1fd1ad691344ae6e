import 'server-only';
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { rawOutputsVisible, roleAtLeast } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import type { Actor } from '../auth/guard';
import { apiRoute } from '../auth/api-route';
import { services } from '../services';

/** Query parameters of the trajectory routes, parsed once here so every route reads them alike. */
const attemptId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);
const index = z.coerce.number().int().nonnegative().max(1_000_000);

export const trajectoryQuery = z.object({ try: index.optional() });
export const rangeQuery = trajectoryQuery.extend({
  from: index.default(0),
  to: index.optional(),
  after: z.coerce.number().int().min(-1).optional(),
});
export const partQuery = trajectoryQuery.extend({
  part: z.enum(['output', 'arguments', 'diff', 'content', 'reasoning']),
  callId: z.string().max(200).optional(),
});
export const searchQuery = trajectoryQuery.extend({ q: z.string().trim().min(1).max(200) });

/** Steps one range request returns at most (a page of the viewer is far fewer). */
export const MAX_RANGE = 100;

type Parsed<T> = { ok: true; id: string; query: T } | { ok: false; response: NextResponse };

export function parseTrajectoryRequest<T>(id: string, url: URL, schema: z.ZodType<T>): Parsed<T> {
  if (!attemptId.safeParse(id).success)
    return { ok: false, response: NextResponse.json({ error: 'That is not an attempt id.' }, { status: 404 }) };
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success)
    return { ok: false, response: NextResponse.json({ error: z.prettifyError(parsed.error) }, { status: 400 }) };
  return { ok: true, id, query: parsed.data };
}

export const noTrajectory = (id: string) =>
  NextResponse.json({ error: `attempt ${id} has no trajectory` }, { status: 404 });

/**
 * A trajectory holds the agent's raw messages, commands and outputs: like the rest of an attempt's raw
 * evidence, viewers see it only once its campaign is published (after its safety review); members and
 * admins, who review, always do. Null when the actor may read it.
 */
export async function trajectoryHidden(db: Db, actor: Actor, attemptId: string): Promise<NextResponse | null> {
  if (roleAtLeast(actor.role, 'member')) return null;
  const a = await db.attempt.findUnique({
    where: { id: attemptId },
    select: { campaign: { select: { publishedAt: true, safetyReview: true } } },
  });
  if (!a) return null; // the route answers 404 itself
  return !rawOutputsVisible(actor.role, a.campaign)
    ? NextResponse.json(
        { error: 'This campaign is not published yet: its trajectories are shown to viewers after its safety review.' },
        { status: 403 },
      )
    : null;
}

/**
 * A GET handler of the trajectory routes: a viewer or above, the attempt id and the query parsed
 * with `schema`, and the trajectory refused while hidden from the caller (see trajectoryHidden).
 */
export function trajectoryRoute<T, P extends { id: string } = { id: string }>(
  schema: z.ZodType<T>,
  handler: (ctx: { id: string; query: T; params: P; db: Db }) => Promise<Response>,
) {
  return apiRoute<P>('viewer', async ({ request, params, actor }) => {
    const req = parseTrajectoryRequest(params.id, request.nextUrl, schema);
    if (!req.ok) return req.response;
    const db = services().db;
    const hidden = await trajectoryHidden(db, actor, req.id);
    return hidden ?? handler({ id: req.id, query: req.query, params, db });
  });
}
