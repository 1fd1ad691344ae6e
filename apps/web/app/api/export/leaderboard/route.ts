import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { parseFilters } from '@/lib/queries/filters';
import { getLeaderboard } from '@/lib/queries/leaderboard';
import { leaderboardCsv } from '@/lib/queries/export';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const GET = apiRoute('member', async ({ request: req, actor }) => {
  const params = Object.fromEntries(req.nextUrl.searchParams);
  if (params.format !== undefined && params.format !== 'csv' && params.format !== 'json') {
    return NextResponse.json(
      { error: `Unknown export format '${params.format.slice(0, 40)}': use csv or json.` },
      { status: 400 },
    );
  }
  const filters = parseFilters(params);
  const board = await getLeaderboard(services().db, filters);
  await audit(actor, {
    action: 'leaderboard.export',
    target: { type: 'leaderboard' },
    detail: { format: params.format ?? 'json', filters },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  if (params.format === 'csv') {
    return new NextResponse(leaderboardCsv(board.rows), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="gitbench-leaderboard-${stamp}.csv"`,
      },
    });
  }
  return NextResponse.json(
    {
      filters,
      campaigns: board.included.map((c) => ({ id: c.id, name: c.name, legacy: c.legacy, complete: c.complete })),
      rows: board.rows,
      humans: board.humans,
    },
    { headers: { 'content-disposition': `attachment; filename="gitbench-leaderboard-${stamp}.json"` } },
  );
});
