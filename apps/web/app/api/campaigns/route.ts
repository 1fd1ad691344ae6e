import { NextResponse } from 'next/server';
import { createCampaign } from '@gitbench/use-cases';
import { campaignDeps, withCreator } from '@/lib/campaigns/service';
import { readJson } from '@/lib/campaigns/http';
import { services } from '@/lib/services';
import { apiRoute } from '@/lib/auth/api-route';
import { auditActor } from '@/lib/auth/audit';

export const dynamic = 'force-dynamic';

export const POST = apiRoute('member', async ({ request, actor }) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const deps = { ...services(), ...(await campaignDeps()) };
  const result = await createCampaign(deps, withCreator(body.value, actor), auditActor(actor));
  if (!result.ok) return NextResponse.json(result.errors, { status: 400 });
  return NextResponse.json(result, { status: 201, headers: { Location: `/api/campaigns/${result.campaignId}` } });
});

export const GET = apiRoute('viewer', async ({ request }) => {
  const limit = Math.min(Number(request.nextUrl.searchParams.get('limit') ?? 50) || 50, 200);
  const campaigns = await services().db.campaign.findMany({
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: {
      id: true,
      name: true,
      status: true,
      legacy: true,
      trials: true,
      suiteVersion: true,
      createdAt: true,
      finishedAt: true,
      configHash: true,
    },
  });
  return NextResponse.json({ campaigns });
});
