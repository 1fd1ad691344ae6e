import { NextResponse, type NextRequest } from 'next/server';
import { isJsonContentType, isSameOrigin } from '@gitbench/auth';
import { authServer } from '@/lib/auth/server';
import { webEnv } from '@/lib/env';
import { readCapped } from '@/lib/read-capped';

export const dynamic = 'force-dynamic';

/** Better Auth's endpoints: sign-in, sign-out, session, OpenID Connect callbacks, admin user management. */
export async function GET(request: NextRequest) {
  return authServer().handler(request);
}

/**
 * Every state-changing auth request must come from the app's own pages as JSON, signed in or not:
 * a cross-site page cannot sign a browser in to another account or out of its own.
 */
export async function POST(request: NextRequest) {
  if (!isSameOrigin(request.headers, request.url, webEnv().GITBENCH_PUBLIC_URL)) {
    return NextResponse.json({ error: 'Cross-origin request refused.' }, { status: 403 });
  }
  if (!isJsonContentType(request.headers))
    return NextResponse.json({ error: 'Send the request as application/json.' }, { status: 415 });
  // Counted as read: a chunked body carries no Content-Length, and an 8 MB sign-in was parsed whole.
  const limit = webEnv().GITBENCH_MAX_BODY_BYTES;
  const body = await readCapped(request, limit);
  if (body === null)
    return NextResponse.json(
      { error: `The request body is larger than ${limit} bytes (GITBENCH_MAX_BODY_BYTES).` },
      { status: 413 },
    );
  return authServer().handler(
    new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) }),
  );
}
