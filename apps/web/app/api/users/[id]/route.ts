import { NextResponse } from 'next/server';
import { z } from 'zod';
import { updateUser } from '@gitbench/auth';
import { ROLES } from '@gitbench/core';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { parseBody } from '@/lib/campaigns/body';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const changeSchema = z
  .object({
    role: z.enum(ROLES, { error: `Use one of ${ROLES.join(', ')}.` }).optional(),
    banned: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.role !== undefined || c.banned !== undefined, 'Say what to change: role or banned.');

export const PATCH = apiRoute<{ id: string }>('admin', async ({ request, params: { id }, actor }) => {
  const body = await parseBody(request, changeSchema);
  if (!body.ok) return body.response;
  const result = await updateUser(services().db, id, body.value);
  if (!result.ok) return NextResponse.json({ error: result.error }, { status: result.status });
  await audit(actor, {
    action: 'user.update',
    target: { type: 'user', id },
    detail: { email: result.user.email, ...body.value },
  });
  return NextResponse.json(result.user);
});
