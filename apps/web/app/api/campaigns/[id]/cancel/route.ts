import { NextResponse } from 'next/server';
import { cancelCampaign } from '@gitbench/use-cases';
import { apiRoute } from '@/lib/auth/api-route';
import { auditActor } from '@/lib/auth/audit';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>('member', async ({ params: { id }, actor }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const result = await cancelCampaign(services(), id, auditActor(actor));
  if (!result.found) return NextResponse.json({ error: `no campaign ${id}` }, { status: 404 });
  const { cancelled, stoppedQueued, sandboxRemoval } = result;
  return NextResponse.json({ cancelled, stoppedQueued, sandboxRemoval }, { status: cancelled ? 200 : 409 });
});
