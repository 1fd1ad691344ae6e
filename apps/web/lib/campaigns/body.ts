import 'server-only';
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { fieldErrorsOf } from '@gitbench/core';
import { readJson } from './http';

/** The body read (size-capped) and parsed with a schema; a 400 with field errors otherwise. */
export async function parseBody<T extends z.ZodType>(
  request: Request,
  schema: T,
): Promise<{ ok: true; value: z.output<T> } | { ok: false; response: NextResponse }> {
  const body = await readJson(request);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) return { ok: false, response: NextResponse.json(fieldErrorsOf(parsed.error), { status: 400 }) };
  return { ok: true, value: parsed.data };
}
