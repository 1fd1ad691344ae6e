/**
 * A JSON value no larger than `maxBytes` once serialised: its longest strings are cut (head kept,
 * a marker saying how much went) until it fits, so the shape of a typed record stays valid. Returns
 * the value unchanged when it already fits, and whether anything was cut.
 */
export function capJsonStrings<T>(value: T, maxBytes: number, limitName: string): { value: T; cut: boolean } {
  let size = Buffer.byteLength(JSON.stringify(value));
  if (size <= maxBytes) return { value, cut: false };
  const copy = structuredClone(value) as unknown;
  // Every string with its holder, longest first: cutting those first removes the most for the least.
  const slots: { holder: Record<string, unknown> | unknown[]; key: string | number; length: number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node))
      node.forEach((v, i) =>
        typeof v === 'string' ? slots.push({ holder: node, key: i, length: v.length }) : walk(v),
      );
    else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === 'string') slots.push({ holder: node as Record<string, unknown>, key: k, length: v.length });
        else walk(v);
      }
    }
  };
  walk(copy);
  slots.sort((a, b) => b.length - a.length);
  for (const slot of slots) {
    if (size <= maxBytes) break;
    const text = (slot.holder as Record<string | number, string>)[slot.key]!;
    const over = size - maxBytes;
    const keep = Math.max(0, Math.min(text.length - 200, text.length - over - 200));
    if (keep >= text.length) continue;
    const cutText = `${text.slice(0, keep)}… [${text.length - keep} characters cut: ${limitName}]`;
    size -= Buffer.byteLength(JSON.stringify(text)) - Buffer.byteLength(JSON.stringify(cutText));
    (slot.holder as Record<string | number, string>)[slot.key] = cutText;
  }
  return { value: copy as T, cut: true };
}
