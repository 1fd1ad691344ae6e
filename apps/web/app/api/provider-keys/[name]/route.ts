import { NextResponse } from 'next/server';
import { deleteProviderKey } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ name: string }>('admin', async ({ params: { name }, actor }) => {
  if (!(await deleteProviderKey(services().db, name)))
    return NextResponse.json({ error: 'No stored key has that name.' }, { status: 404 });
  await audit(actor, { action: 'key.delete', target: { type: 'provider_key', id: name } });
  return NextResponse.json({ deleted: name });
});
