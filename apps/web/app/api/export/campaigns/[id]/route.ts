import { NextResponse, type NextRequest } from 'next/server';
import { campaignAaExport, campaignAttemptsExport } from '@gitbench/db';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

/** The same exports as `gitbench campaign export`: attempts as CSV or JSON, or the artificialanalysis rows. */
export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const requested = req.nextUrl.searchParams.get('format');
  const format = requested === 'csv' || requested === 'aa' ? requested : 'json';
  const { db } = services();
  const body = format === 'aa' ? await campaignAaExport(db, id) : await campaignAttemptsExport(db, id, format);
  if (body === null) return NextResponse.json({ error: `Campaign ${id} does not exist.` }, { status: 404 });
  const [type, suffix] = format === 'json' ? ['application/json', 'attempts.json'] : ['text/csv; charset=utf-8', format === 'aa' ? 'artificialanalysis.csv' : 'attempts.csv'];
  return new NextResponse(body, {
    headers: { 'content-type': type, 'content-disposition': `attachment; filename="gitbench-${id}-${suffix}"` },
  });
}
