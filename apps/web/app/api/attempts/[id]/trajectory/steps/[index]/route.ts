import { NextResponse } from 'next/server';
import { z } from 'zod';
import { getStepPart } from '@/lib/queries/trajectory';
import { partQuery, trajectoryRoute } from '@/lib/trajectory/http';
import { parseStepPart } from '@/lib/trajectory/view-model';

export const dynamic = 'force-dynamic';

/** One part of one step whole (`?part=output&callId=...`, `?part=diff`, ...): the viewer's "show all". */
export const GET = trajectoryRoute<z.infer<typeof partQuery>, { id: string; index: string }>(
  partQuery,
  async ({ id, query, params, db }) => {
    const index = z.coerce.number().int().nonnegative().safeParse(params.index);
    const part = parseStepPart(query.part, query.callId ?? null);
    if (!index.success || !part)
      return NextResponse.json(
        { error: 'Say which step and which part (and callId for an output or arguments).' },
        { status: 400 },
      );
    const text = await getStepPart(db, id, index.data, part, query.try);
    if (text === null)
      return NextResponse.json({ error: `step ${index.data} of attempt ${id} has no such part` }, { status: 404 });
    // Raw tool output is the model's: a browser opening this URL saves it rather than rendering it.
    return new NextResponse(text, {
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'content-disposition': `attachment; filename="${id}-step-${index.data}.txt"`,
      },
    });
  },
);
