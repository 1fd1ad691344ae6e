import { NextResponse } from 'next/server';
import { cancelCampaign } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>('member', async ({ params: { id }, actor }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const { db } = services();
  if (!(await db.campaign.findUnique({ where: { id }, select: { id: true } }))) return NextResponse.json({ error: `no campaign ${id}` }, { status: 404 });
  const result = await cancelCampaign(db, id);
  if (result.cancelled) await audit(actor, { action: 'campaign.cancel', target: { type: 'campaign', id } });
  // Running attempts notice at their next heartbeat; a worker job removes their sandboxes now, so
  // their commands stop at once. The web app holds no Docker socket: only workers touch the engine.
  let sandboxRemoval: 'requested' | 'not requested' = 'not requested';
  if (result.cancelled) {
    await services()
      .queue.enqueue('campaign.cancel', { campaignId: id, request: Date.now() })
      .then(() => (sandboxRemoval = 'requested'))
      .catch(() => undefined);
  }
  return NextResponse.json({ ...result, sandboxRemoval }, { status: result.cancelled ? 200 : 409 });
});
