import { NextResponse } from 'next/server';
import { getAtifExport } from '@/lib/queries/trajectory';
import { noTrajectory, trajectoryQuery, trajectoryRoute } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/** The attempt's trajectory (latest try unless `?try=`) as ATIF v1.4 JSON, downloaded as a file. */
export const GET = trajectoryRoute(trajectoryQuery, async ({ id, query, db }) => {
  const atif = await getAtifExport(db, id, query.try);
  if (!atif) return noTrajectory(id);
  return new NextResponse(JSON.stringify(atif), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${id}.atif.json"`,
    },
  });
});
