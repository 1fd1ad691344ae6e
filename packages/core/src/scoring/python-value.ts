/**
 * A json.loads result as Python holds it, and Python's `==` on it. JSON.parse would disagree with upstream on
 * answers that matter for json_semantic_equal: Python accepts NaN and ±Infinity, keeps integers
 * exact at any size (12345678901234567890 != 12345678901234567891), and compares 1 == 1.0 == True.
 */

export type PyValue =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'list'; items: PyValue[] }
  | { kind: 'dict'; entries: Map<string, PyValue> };

type Numeric = { exact: bigint } | { float: number };

function numeric(v: PyValue): Numeric | null {
  if (v.kind === 'bool') return { exact: v.value ? 1n : 0n };
  if (v.kind === 'int') return { exact: v.value };
  if (v.kind === 'float') return { float: v.value };
  return null;
}

function numericEqual(a: Numeric, b: Numeric): boolean {
  if ('exact' in a && 'exact' in b) return a.exact === b.exact;
  if ('float' in a && 'float' in b) return a.float === b.float;
  const exact = 'exact' in a ? a.exact : (b as { exact: bigint }).exact;
  const float = 'float' in a ? a.float : (b as { float: number }).float;
  // Python compares int and float by exact value.
  return Number.isInteger(float) && BigInt(float) === exact;
}

/** Python `==` between two json.loads results. */
export function pyEqual(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na || nb) return na !== null && nb !== null && numericEqual(na, nb);
  if (a.kind !== b.kind) return false;
  if (a.kind === 'null') return true;
  if (a.kind === 'str') return a.value === (b as { value: string }).value;
  if (a.kind === 'list') {
    const items = (b as { items: PyValue[] }).items;
    return a.items.length === items.length && a.items.every((item, i) => pyEqual(item, items[i] as PyValue));
  }
  if (a.kind === 'dict') {
    const entries = (b as { entries: Map<string, PyValue> }).entries;
    if (a.entries.size !== entries.size) return false;
    for (const [key, value] of a.entries) {
      const other = entries.get(key);
      if (other === undefined || !pyEqual(value, other)) return false;
    }
    return true;
  }
  return false;
}

/** A value written in JSON Schema or YAML (a JS value) as json.loads would have produced it. */
export function jsToPy(value: unknown): PyValue {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'bigint') return { kind: 'int', value };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { kind: 'int', value: BigInt(value) } : { kind: 'float', value };
  if (typeof value === 'string') return { kind: 'str', value };
  if (Array.isArray(value)) return { kind: 'list', items: value.map(jsToPy) };
  return {
    kind: 'dict',
    entries: new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsToPy(v)])),
  };
}

/** The plain JS value of a parsed document (integers beyond 2^53 lose precision here, nowhere else). */
export function pyToJs(value: PyValue): unknown {
  switch (value.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'float':
    case 'str':
      return value.value;
    case 'int':
      return Number(value.value);
    case 'list':
      return value.items.map(pyToJs);
    case 'dict':
      return Object.fromEntries([...value.entries].map(([k, v]) => [k, pyToJs(v)]));
  }
}
