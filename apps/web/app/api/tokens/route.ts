import { NextResponse } from 'next/server';
import { z } from 'zod';
import { createApiToken, listApiTokens, TokenManagementRefused } from '@gitbench/auth';
import { ROLES } from '@gitbench/core';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { parseBody } from '@/lib/campaigns/body';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const newTokenSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the token (what uses it).').max(100, 'Keep the name under 100 characters.'),
    role: z.enum(ROLES, { error: `Use one of ${ROLES.join(', ')}.` }).default('member'),
    expiresInDays: z.number().int().min(1).max(3650).optional(),
  })
  .strict();

/** The caller's own tokens; the tokens themselves are never shown again after creation. */
export const GET = apiRoute('member', async ({ actor }) =>
  NextResponse.json({ tokens: await listApiTokens(services().db, actor.userId) }),
);

/** A token for the CLI or CI, with at most the caller's role; the response is the only time it is shown. */
export const POST = apiRoute('member', async ({ request, actor }) => {
  if (actor.via !== 'session')
    return NextResponse.json({ error: new TokenManagementRefused().message }, { status: 403 });
  const body = await parseBody(request, newTokenSchema);
  if (!body.ok) return body.response;
  const { name, role, expiresInDays } = body.value;
  const made = await createApiToken(
    services().db,
    { id: actor.userId, role: actor.role, via: actor.via },
    {
      name,
      role,
      ...(expiresInDays ? { expiresAt: new Date(Date.now() + expiresInDays * 86_400_000) } : {}),
    },
  );
  await audit(actor, {
    action: 'token.create',
    target: { type: 'token', id: made.id },
    detail: { name, role: made.role },
  });
  return NextResponse.json(made, { status: 201, headers: { 'cache-control': 'no-store' } });
});
