/**
 * Head and tail of a text cut to `maxBytes` (UTF-8), with a marker saying how much was left out: what
 * the model sees of a long tool output. The first lines (a command's header, the first error) and the
 * last (the summary, the final error) are what a reader needs; the middle is dropped.
 */
export interface CappedText {
  text: string;
  /** Size of the text before capping. */
  bytes: number;
  /** Bytes of the original not shown (0 when it fitted). */
  truncatedBytes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** `hint` tells the model how to read what was left out (a tool's truncationHint). */
export function capHeadTail(text: string, maxBytes: number, hint?: string): CappedText {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length, truncatedBytes: 0 };
  const head = Math.ceil(maxBytes / 2);
  const tail = maxBytes - head;
  const omitted = bytes.length - head - tail;
  const marker = hint
    ? `[... ${omitted} of ${bytes.length} bytes omitted: ${hint} ...]`
    : `[... ${omitted} bytes omitted ...]`;
  const shown = [
    decoder.decode(bytes.subarray(0, head)),
    marker,
    decoder.decode(bytes.subarray(bytes.length - tail)),
  ].join('\n');
  return { text: shown, bytes: bytes.length, truncatedBytes: omitted };
}

export function byteLength(text: string): number {
  return encoder.encode(text).length;
}
