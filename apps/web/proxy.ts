import { NextResponse, type NextRequest } from 'next/server';
import { securityHeaders } from './lib/security-headers';

const PATH_HEADER = 'x-gitbench-path';

/** A NUL or an escape that is not UTF-8 anywhere in the URL: refused before any page or route sees it. */
function badUrl(request: NextRequest): string | null {
  const { pathname, search } = request.nextUrl;
  for (const [label, raw] of [
    ['path', pathname],
    ['query', search],
  ] as const) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      return `The ${label} holds an invalid percent-escape.`;
    }
    // decodeURIComponent already refuses escapes that are not UTF-8 (an encoded lone surrogate among them).
    if (decoded.includes('\u0000')) return `The ${label} holds a NUL character.`;
  }
  return null;
}

/** Read once: the public URL does not change while the server runs (an empty value counts as unset). */
const SECURITY_HEADERS = securityHeaders(process.env['GITBENCH_PUBLIC_URL'] || undefined);

function withSecurityHeaders(response: NextResponse): NextResponse {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * Every request passes here first: malformed URLs get 400, pages learn their own path and query (for
 * sign-in to send the user back), and every answer gets the security headers. Who may see what is
 * decided by each page and route handler.
 */
export function proxy(request: NextRequest) {
  const bad = badUrl(request);
  if (bad) return withSecurityHeaders(NextResponse.json({ error: bad }, { status: 400 }));
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }));
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
