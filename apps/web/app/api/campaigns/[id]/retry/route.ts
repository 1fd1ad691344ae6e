import { NextResponse } from 'next/server';
import { retryCampaign } from '@gitbench/use-cases';
import { apiRoute } from '@/lib/auth/api-route';
import { auditActor } from '@/lib/auth/audit';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

/**
 * Re-queues only infrastructure failures as new tries (their failed tries stay in the history), and
 * plans again a campaign whose planning failed.
 */
export const POST = apiRoute<{ id: string }>('member', async ({ params: { id }, actor }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const result = await retryCampaign(services(), id, auditActor(actor));
  if (!result.found) return NextResponse.json({ error: `no campaign ${id}` }, { status: 404 });
  if (!result.ok) return NextResponse.json({ error: result.error }, { status: 409 });
  const { requeued, dispatched, replanned } = result;
  return NextResponse.json({ requeued, dispatched, replanned });
});
