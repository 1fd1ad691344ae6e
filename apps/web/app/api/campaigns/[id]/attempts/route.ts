import { NextResponse } from 'next/server';
import { z } from 'zod';
import { ANSWER_MODES, ATTEMPT_STATUSES } from '@gitbench/core';
import { apiRoute } from '@/lib/auth/api-route';
import { campaignIdOr404 } from '@/lib/campaigns/http';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  status: z.enum(ATTEMPT_STATUSES).optional(),
  model: z.string().min(1).optional(),
  domain: z.string().min(1).optional(),
  fixture: z.string().min(1).optional(),
  outputMode: z.enum(ANSWER_MODES).optional(),
  trial: z.coerce.number().int().min(1).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});

export const GET = apiRoute<{ id: string }>('viewer', async ({ request, params: { id } }) => {
  const bad = campaignIdOr404(id);
  if (bad) return bad;
  const parsed = querySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!parsed.success) {
    return NextResponse.json(
      {
        formErrors: [],
        fieldErrors: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), [i.message]])),
      },
      { status: 400 },
    );
  }
  const { db } = services();
  if (!(await db.campaign.findUnique({ where: { id }, select: { id: true } })))
    return NextResponse.json({ error: `no campaign ${id}` }, { status: 404 });
  const q = parsed.data;
  const where = {
    campaignId: id,
    ...(q.status && { status: q.status }),
    ...(q.model && { modelId: q.model }),
    ...(q.domain && { domain: q.domain }),
    ...(q.fixture && { fixtureId: q.fixture }),
    ...(q.outputMode && { outputMode: q.outputMode }),
    ...(q.trial && { trial: q.trial }),
  };
  const [total, attempts] = await Promise.all([
    db.attempt.count({ where }),
    db.attempt.findMany({
      where,
      orderBy: [{ trial: 'asc' }, { domain: 'asc' }, { fixtureId: 'asc' }, { modelId: 'asc' }, { outputMode: 'asc' }],
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
      select: {
        id: true,
        trial: true,
        modelId: true,
        reasoningEffort: true,
        outputMode: true,
        domain: true,
        fixtureId: true,
        difficulty: true,
        status: true,
        passed: true,
        score: true,
        tryCount: true,
        costUsd: true,
        totalTokens: true,
        apiDurationMs: true,
        errorClass: true,
        finishedAt: true,
      },
    }),
  ]);
  return NextResponse.json({ total, page: q.page, pageSize: q.pageSize, attempts });
});
