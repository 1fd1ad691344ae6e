import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../lib/security-headers';

describe('security headers', () => {
  it('forbid framing and sniffing, set a referrer policy, and keep scripts to this origin', () => {
    const h = securityHeaders(undefined);
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(h['content-security-policy']).toContain("object-src 'none'");
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('add HSTS only when the public URL is https', () => {
    expect(securityHeaders(undefined)['strict-transport-security']).toBeUndefined();
    expect(securityHeaders('http://10.0.0.5:3000')['strict-transport-security']).toBeUndefined();
    expect(securityHeaders('https://gitbench.example.com')['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
  });
});
