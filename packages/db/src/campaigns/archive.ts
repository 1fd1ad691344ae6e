import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Repository archives are stored gzip-compressed: a fixture workspace is mostly text and shrinks
 * several times over, and every byte stored is a byte the driver encodes on the way in and every
 * attempt reads on the way out. Archives written before compression are plain tar (which never
 * starts with gzip's magic bytes) and are read as they are.
 */
export function packArchive(archive: Buffer): Uint8Array<ArrayBuffer> {
  // A build's sandbox compresses the archive itself; it is kept as it came.
  return new Uint8Array(isGzip(archive) ? archive : gzipSync(archive, { level: 6 }));
}

export function unpackArchive(stored: Uint8Array): Buffer {
  const bytes = Buffer.from(stored);
  return isGzip(bytes) ? gunzipSync(bytes) : bytes;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}
