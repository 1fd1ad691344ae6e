import { randomBytes } from 'node:crypto';
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { createUser } from '@gitbench/auth';
import { ROLES } from '@gitbench/core';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { authServer } from '@/lib/auth/server';
import { parseBody } from '@/lib/campaigns/body';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const newUserSchema = z
  .object({
    email: z.email('Enter an email address.').max(320),
    name: z.string().trim().min(1, 'Enter a name.').max(200),
    role: z.enum(ROLES, { error: `Use one of ${ROLES.join(', ')}.` }),
  })
  .strict();

export const GET = apiRoute('admin', async () => {
  const users = await services().db.user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, email: true, name: true, role: true, banned: true, createdAt: true },
  });
  return NextResponse.json({ users });
});

/** A new account with a generated password, shown to the admin once, to pass on. */
export const POST = apiRoute('admin', async ({ request, actor }) => {
  const body = await parseBody(request, newUserSchema);
  if (!body.ok) return body.response;
  const { db } = services();
  if (await db.user.findUnique({ where: { email: body.value.email.toLowerCase() }, select: { id: true } })) {
    return NextResponse.json(
      { formErrors: [], fieldErrors: { email: ['A user with this email exists already.'] } },
      { status: 409 },
    );
  }
  const password = randomBytes(15).toString('base64url');
  const user = await createUser(authServer(), { ...body.value, password });
  await audit(actor, {
    action: 'user.create',
    target: { type: 'user', id: user.id },
    detail: { email: user.email, role: user.role },
  });
  return NextResponse.json({ ...user, password }, { status: 201, headers: { 'cache-control': 'no-store' } });
});
