/**
 * Headers every response of the app carries.
 * - The Content-Security-Policy keeps pages to this origin's scripts, styles, images and connections,
 *   and `frame-ancestors 'none'` stops another site framing a page (clickjacking). Next's hydration
 *   writes inline scripts, so script-src allows inline scripts of this origin's pages; no script is
 *   loaded from elsewhere, and no plugin, base URL or form target outside the app is allowed.
 * - nosniff: a browser never reads stored model output served as text as HTML or script.
 * - HSTS only when the app is reached over https (GITBENCH_PUBLIC_URL): sent over http it would be ignored,
 *   and a local demo on http must keep working.
 */
export function securityHeaders(publicUrl: string | undefined): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    ...(publicUrl?.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}
