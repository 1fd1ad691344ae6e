import { NextResponse } from 'next/server';
import { revokeApiToken, TokenManagementRefused } from '@gitbench/auth';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

/** Revokes one of the caller's tokens (an admin may revoke anyone's): it gets 401 from then on. */
export const DELETE = apiRoute<{ id: string }>('member', async ({ params: { id }, actor }) => {
  if (actor.via !== 'session')
    return NextResponse.json({ error: new TokenManagementRefused().message }, { status: 403 });
  if (!(await revokeApiToken(services().db, id, { id: actor.userId, role: actor.role, via: actor.via }))) {
    return NextResponse.json({ error: 'No such active token of yours.' }, { status: 404 });
  }
  await audit(actor, { action: 'token.revoke', target: { type: 'token', id } });
  return NextResponse.json({ revoked: id });
});
