import { NextResponse, type NextRequest } from 'next/server';
import { z } from 'zod';
import { createFirstAdmin, isJsonContentType, isSameOrigin } from '@gitbench/auth';
import { authServer } from '@/lib/auth/server';
import { readJson } from '@/lib/campaigns/http';
import { webEnv } from '@/lib/env';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const firstAdminSchema = z.object({
  name: z.string().trim().min(1, 'Enter your name.').max(200),
  email: z.email('Enter an email address.').max(320),
  password: z.string().min(10, 'Use at least 10 characters.').max(256, 'Use at most 256 characters.'),
});

/** The first-run page's form: creates the first admin, and only while GitBench has no user at all. */
export async function POST(request: NextRequest) {
  if (!isSameOrigin(request.headers, request.url, webEnv().GITBENCH_PUBLIC_URL)) {
    return NextResponse.json({ error: 'Cross-origin request refused.' }, { status: 403 });
  }
  if (!isJsonContentType(request.headers))
    return NextResponse.json({ error: 'Send the request as application/json.' }, { status: 415 });
  const { db } = services();
  if ((await db.user.count()) > 0)
    return NextResponse.json({ error: 'GitBench already has users: sign in instead.' }, { status: 409 });
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = firstAdminSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join('.') || 'form'] ??= []).push(issue.message);
    return NextResponse.json({ formErrors: [], fieldErrors }, { status: 400 });
  }
  const created = await createFirstAdmin(authServer(), db, parsed.data);
  if ('error' in created) return NextResponse.json({ error: created.error }, { status: 409 });
  return NextResponse.json({ created: true }, { status: 201 });
}
