import { NextResponse } from 'next/server';
import { campaignAaExport, campaignAttemptsExport } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

/** Chunks of text as a byte stream that reads the next chunk only when the client takes the last one. */
function streamOf(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await it.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await it.return?.();
    },
  });
}

/**
 * The same exports as `gitbench campaign export`: attempts as CSV or JSON (streamed), or the artificialanalysis rows.
 */
export const GET = apiRoute<{ id: string }>('member', async ({ request: req, params: { id }, actor }) => {
  const requested = req.nextUrl.searchParams.get('format') ?? 'json';
  if (requested !== 'csv' && requested !== 'aa' && requested !== 'json') {
    return NextResponse.json(
      { error: `Unknown export format '${requested.slice(0, 40)}': use csv, json or aa.` },
      { status: 400 },
    );
  }
  const format = requested;
  const { db } = services();
  const body = format === 'aa' ? await campaignAaExport(db, id) : await campaignAttemptsExport(db, id, format);
  if (body === null) return NextResponse.json({ error: `Campaign ${id} does not exist.` }, { status: 404 });
  await audit(actor, { action: 'campaign.export', target: { type: 'campaign', id }, detail: { format } });
  const [type, suffix] =
    format === 'json'
      ? ['application/json', 'attempts.json']
      : ['text/csv; charset=utf-8', format === 'aa' ? 'artificialanalysis.csv' : 'attempts.csv'];
  return new NextResponse(typeof body === 'string' ? body : streamOf(body), {
    headers: { 'content-type': type, 'content-disposition': `attachment; filename="gitbench-${id}-${suffix}"` },
  });
});
