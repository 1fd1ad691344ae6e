import { NextResponse, type NextRequest } from 'next/server';
import { resolveActor } from '@gitbench/auth';
import { authServer } from '@/lib/auth/server';
import { checkServices, services } from '@/lib/services';
import { sharedResult } from '@/lib/shared-result';

export const dynamic = 'force-dynamic';

/**
 * Anonymous callers (load balancers, compose, anyone) share one run of the checks every 10 s: each run
 * sends the workers a ping job, and a hundred anonymous requests queued a hundred of them.
 */
const sharedChecks = sharedResult(checkServices, 10_000);

/** Up or not, for load balancers and compose; what each service said, checked afresh, only for signed-in users. */
export async function GET(request: NextRequest) {
  const { actor } = await resolveActor(authServer(), services().db, request.headers).catch(() => ({ actor: null }));
  const checks = await (actor ? checkServices() : sharedChecks());
  const ok = checks.every((c) => c.ok);
  return NextResponse.json(actor ? { ok, checks } : { ok }, { status: ok ? 200 : 503 });
}
