import { NextResponse } from 'next/server';
import { z } from 'zod';
import { listAuditEvents } from '@gitbench/db';
import { apiRoute } from '@/lib/auth/api-route';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z
    .string()
    .regex(/^aud_[A-Za-z0-9]+$/)
    .optional(),
  action: z.string().max(50).optional(),
  actorEmail: z.string().max(320).optional(),
  targetType: z.string().max(50).optional(),
  via: z.string().max(20).optional(),
});

export const GET = apiRoute('admin', async ({ request }) => {
  const q = querySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!q.success)
    return NextResponse.json(
      { error: q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') },
      { status: 400 },
    );
  return NextResponse.json({ events: await listAuditEvents(services().db, q.data) });
});
