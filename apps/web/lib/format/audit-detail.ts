/**
 * An audit entry's detail as lines a person reads (`format: csv`, `filters: none`) instead of raw
 * JSON. Nested objects become dotted keys; an empty object or array says "none".
 */
export function auditDetailLines(detail: unknown): { key: string; value: string }[] {
  if (detail === null || detail === undefined) return [];
  if (typeof detail !== 'object' || Array.isArray(detail)) return [{ key: 'detail', value: scalar(detail) }];
  const lines: { key: string; value: string }[] = [];
  const walk = (prefix: string, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value);
      if (entries.length === 0) lines.push({ key: prefix, value: 'none' });
      for (const [k, v] of entries) walk(prefix ? `${prefix}.${k}` : k, v);
    } else {
      lines.push({ key: prefix, value: scalar(value) });
    }
  };
  walk('', detail);
  return lines;
}

function scalar(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(scalar).join(', ');
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
