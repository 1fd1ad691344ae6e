import { NextResponse } from 'next/server';
import { z } from 'zod';
import { decideSafetyReview } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { parseBody } from '@/lib/campaigns/body';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const decisionSchema = z
  .object({ decision: z.enum(['approved', 'blocked'], { error: 'Decide approved or blocked.' }) })
  .strict();

/** A member's or admin's decision on the campaign's safety review, after reading its raw outputs. */
export const POST = apiRoute<{ id: string }>('member', async ({ request, params: { id }, actor }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const body = await parseBody(request, decisionSchema);
  if (!body.ok) return body.response;
  if (!(await decideSafetyReview(services().db, id, body.value.decision)))
    return NextResponse.json({ error: 'No such campaign (or a legacy import).' }, { status: 404 });
  await audit(actor, {
    action: 'campaign.review',
    target: { type: 'campaign', id },
    detail: { decision: body.value.decision },
  });
  return NextResponse.json({ safetyReview: body.value.decision });
});
