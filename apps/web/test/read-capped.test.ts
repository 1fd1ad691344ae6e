import { describe, expect, it } from 'vitest';
import { readCapped } from '../lib/read-capped';

/** A chunked body (no Content-Length) of `chunks` pieces of 64 KiB, counting how many were pulled. */
function chunked(chunks: number) {
  const seen = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
    },
  });
  return {
    request: new Request('http://x/api/auth/sign-in/email', { method: 'POST', body, duplex: 'half' } as RequestInit),
    seen,
  };
}

describe('readCapped', () => {
  it('stops reading a chunked 8 MB body at the limit', async () => {
    const { request, seen } = chunked(128);
    expect(request.headers.get('content-length')).toBeNull();
    expect(await readCapped(request, 256 * 1024)).toBeNull();
    expect(seen.pulled).toBeLessThan(10);
  });

  it('refuses a declared length past the limit without reading, and returns a body within it', async () => {
    expect(
      await readCapped(
        new Request('http://x/', { method: 'POST', headers: { 'content-length': '999999' }, body: 'x' }),
        1024,
      ),
    ).toBeNull();
    expect((await readCapped(new Request('http://x/', { method: 'POST', body: '{"a":1}' }), 1024))!.toString()).toBe(
      '{"a":1}',
    );
    expect((await readCapped(chunked(2).request, 256 * 1024))!.byteLength).toBe(128 * 1024);
  });
});
