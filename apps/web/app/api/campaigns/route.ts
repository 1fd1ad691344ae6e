import { NextResponse, type NextRequest } from 'next/server';
import { createCampaign } from '@gitbench/db';
import { campaignDeps } from '@/lib/campaigns/service';
import { readJson } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export async function POST(request: NextRequest) {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const result = await createCampaign(services().db, body.value, await campaignDeps());
  if (!result.ok) return NextResponse.json(result.errors, { status: 400 });
  return NextResponse.json(result, { status: 201, headers: { Location: `/api/campaigns/${result.campaignId}` } });
}

export async function GET(request: NextRequest) {
  const limit = Math.min(Number(request.nextUrl.searchParams.get('limit') ?? 50) || 50, 200);
  const campaigns = await services().db.campaign.findMany({
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { id: true, name: true, status: true, legacy: true, trials: true, suiteVersion: true, createdAt: true, finishedAt: true, configHash: true },
  });
  return NextResponse.json({ campaigns });
}
