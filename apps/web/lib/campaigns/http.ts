import 'server-only';
import { NextResponse } from 'next/server';
import { webEnv } from '../env';
import { readCapped } from '../read-capped';

type Read = { ok: true; value: unknown } | { ok: false; response: NextResponse };

const tooLarge = (limit: number) =>
  NextResponse.json(
    { formErrors: [`The request body is larger than ${limit} bytes (GITBENCH_MAX_BODY_BYTES).`], fieldErrors: {} },
    { status: 413 },
  );

/**
 * The body as JSON, read no further than the configured limit (413 past it, without reading the
 * rest), and a 400 that says so when it is not JSON, in the same shape as field errors.
 */
export async function readJson(request: Request, limit = webEnv().GITBENCH_MAX_BODY_BYTES): Promise<Read> {
  const bytes = await readCapped(request, limit);
  if (bytes === null) return { ok: false, response: tooLarge(limit) };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return {
      ok: false,
      response: NextResponse.json(
        { formErrors: ['The request body is not valid JSON.'], fieldErrors: {} },
        { status: 400 },
      ),
    };
  }
}

const ID = /^cmp_[A-Za-z0-9]+$/;

export function campaignIdOr404(id: string): NextResponse | null {
  return ID.test(id) ? null : NextResponse.json({ error: 'That is not a campaign id.' }, { status: 404 });
}
