import { NextResponse } from 'next/server';
import { searchTrajectory } from '@/lib/queries/trajectory';
import { noTrajectory, searchQuery, trajectoryRoute } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/** Steps whose message, reasoning, arguments, output, diff or notes contain `q` (case-insensitive). */
export const GET = trajectoryRoute(searchQuery, async ({ id, query, db }) => {
  const found = await searchTrajectory(db, id, query.q, query.try);
  return found ? NextResponse.json({ query: query.q, ...found }) : noTrajectory(id);
});
