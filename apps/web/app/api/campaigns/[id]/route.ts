import { NextResponse } from 'next/server';
import { campaignProgress } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>('viewer', async ({ params: { id } }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const { db } = services();
  const campaign = await db.campaign.findUnique({
    where: { id },
    select: {
      id: true,
      name: true,
      createdBy: true,
      status: true,
      statusDetail: true,
      legacy: true,
      config: true,
      configHash: true,
      seed: true,
      suiteVersion: true,
      trials: true,
      safetyReview: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      cancelledAt: true,
    },
  });
  if (!campaign) return NextResponse.json({ error: `no campaign ${id}` }, { status: 404 });
  const progress = await campaignProgress(db, id);
  // ETA from the pace so far: finished attempts per second since the campaign started.
  const elapsed = campaign.startedAt ? (Date.now() - campaign.startedAt.getTime()) / 1000 : 0;
  const remaining = progress.total - progress.done;
  const etaSeconds =
    progress.done > 0 && remaining > 0 && elapsed > 0
      ? Math.round((remaining * elapsed) / progress.done)
      : remaining === 0
        ? 0
        : null;
  return NextResponse.json({ campaign, progress, etaSeconds });
});
