import { NextResponse } from 'next/server';
import { readGatewayCalls } from '@gitbench/db';
import { trajectoryQuery, trajectoryRoute } from '@/lib/trajectory/http';

export const dynamic = 'force-dynamic';

/**
 * A third-party agent attempt's calls through the model gateway (latest try unless `?try=`), as stored:
 * each record whole up to the stored cap, with `cutBytes` saying how much the cap removed. They are the
 * trajectory's source and hold the agent's raw requests, so they are shown to whoever may see its
 * trajectory (trajectoryRoute).
 */
export const GET = trajectoryRoute(trajectoryQuery, async ({ id, query, db }) => {
  const calls = await readGatewayCalls(db, id, query.try !== undefined ? { tryNumber: query.try } : {});
  if (calls.length === 0)
    return NextResponse.json(
      { error: `attempt ${id} has no gateway calls (only a third-party agent's attempts do)` },
      { status: 404 },
    );
  return new NextResponse(
    JSON.stringify({ attemptId: id, calls: calls.map((c) => ({ ...c.record, cutBytes: c.cutBytes })) }),
    {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${id}.gateway-calls.json"`,
      },
    },
  );
});
