/**
 * A request body read no further than `limit` bytes, however it is sent: a Content-Length past the
 * limit is refused before reading, and a chunked body (no Content-Length) is counted as it arrives and
 * abandoned at the first byte past it. Null when it is too large.
 */
export async function readCapped(request: Request, limit: number): Promise<Buffer | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}
