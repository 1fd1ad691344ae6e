import { NextResponse } from 'next/server';
import { z } from 'zod';
import { listProviderKeys, PROVIDER_KEY_NAME, putProviderKey } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { parseBody } from '@/lib/campaigns/body';
import { webEnv } from '@/lib/env';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const newKeySchema = z
  .object({
    name: z
      .string()
      .trim()
      .regex(
        PROVIDER_KEY_NAME,
        'Use letters, digits, dot, dash or underscore (up to 64), as profiles name it in api_key_ref.',
      ),
    value: z
      .string()
      .trim()
      .min(8, 'That is too short to be a provider key.')
      .max(4096, 'That is too long to be a provider key.'),
  })
  .strict();

/** The stored keys by name: never the key, nor any part of it. */
export const GET = apiRoute('admin', async () =>
  NextResponse.json(
    { keys: await listProviderKeys(services().db, webEnv().GITBENCH_SECRET_KEY) },
    { headers: { 'cache-control': 'no-store' } },
  ),
);

/** Stores (or replaces) a key, sealed; the answer names it and says nothing of its value. */
export const POST = apiRoute('admin', async ({ request, actor }) => {
  const body = await parseBody(request, newKeySchema);
  if (!body.ok) return body.response;
  const { name, value } = body.value;
  const stored = await putProviderKey(services().db, webEnv().GITBENCH_SECRET_KEY, { name, value, by: actor.email });
  await audit(actor, {
    action: 'key.set',
    target: { type: 'provider_key', id: name },
    detail: { replaced: stored.replaced },
  });
  return NextResponse.json(
    { id: stored.id, name, replaced: stored.replaced },
    { status: stored.replaced ? 200 : 201, headers: { 'cache-control': 'no-store' } },
  );
});
