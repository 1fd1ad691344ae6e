import { NextResponse } from 'next/server';
import { getTrajectoryView } from '@/lib/queries/trajectory';
import { noTrajectory, trajectoryQuery, trajectoryRoute } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/** The trajectory's counters, jump targets and the head of every step (no bodies). */
export const GET = trajectoryRoute(trajectoryQuery, async ({ id, query, db }) => {
  const view = await getTrajectoryView(db, id, query.try);
  return view ? NextResponse.json(view) : noTrajectory(id);
});
