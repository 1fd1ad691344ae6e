import { NextResponse } from 'next/server';
import { z } from 'zod';
import { publishCampaign } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { parseBody } from '@/lib/campaigns/body';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const publishSchema = z.object({ publish: z.boolean().default(true) }).strict();

/** Publishes (or withdraws) a finished, reviewed campaign: viewers then see its raw outputs. */
export const POST = apiRoute<{ id: string }>('member', async ({ request, params: { id }, actor }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const body = await parseBody(request, publishSchema);
  if (!body.ok) return body.response;
  const result = await publishCampaign(services().db, id, actor.email, body.value.publish);
  if (!result.ok) return NextResponse.json({ error: result.error }, { status: result.status });
  await audit(actor, {
    action: body.value.publish ? 'campaign.publish' : 'campaign.unpublish',
    target: { type: 'campaign', id },
  });
  return NextResponse.json({ published: body.value.publish });
});
