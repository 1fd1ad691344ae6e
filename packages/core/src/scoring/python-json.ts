/**
 * Python's `json.loads` and `==` on its result. JSON.parse would disagree with upstream on
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

export class PyJsonError extends Error {}

// Python's json.loads skips only these four between tokens.
const WS = ' \t\n\r';
const MAX_DEPTH = 500;

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new PyJsonError(`${what} at character ${this.pos}`);
  }

  skip(): void {
    while (this.pos < this.text.length && WS.includes(this.text[this.pos] as string)) this.pos++;
  }

  parseDocument(): PyValue {
    this.skip();
    const value = this.value(0);
    this.skip();
    if (this.pos !== this.text.length) this.fail('Extra data');
    return value;
  }

  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail('Nesting too deep');
    const ch = this.text[this.pos];
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    if (ch === '"') return { kind: 'str', value: this.string() };
    for (const [word, value] of [
      ['null', { kind: 'null' }],
      ['true', { kind: 'bool', value: true }],
      ['false', { kind: 'bool', value: false }],
      ['NaN', { kind: 'float', value: Number.NaN }],
      ['Infinity', { kind: 'float', value: Number.POSITIVE_INFINITY }],
      ['-Infinity', { kind: 'float', value: Number.NEGATIVE_INFINITY }],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.number();
  }

  number(): PyValue {
    const match = /^(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 4096));
    if (!match) this.fail('Expecting value');
    this.pos += match[0].length;
    if (match[2] === undefined && match[3] === undefined) return { kind: 'int', value: BigInt(match[1] as string) };
    return { kind: 'float', value: Number(match[0]) };
  }

  string(): string {
    this.pos++;
    let out = '';
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail('Unterminated string');
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch < ' ') this.fail('Invalid control character');
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      const esc = this.text[this.pos + 1];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (esc !== undefined && esc in simple) {
        out += simple[esc];
        this.pos += 2;
      } else if (esc === 'u') {
        const hex = this.text.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\uXXXX escape');
        // Surrogate pairs written as two escapes join into one code point, as in Python.
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        this.fail('Invalid \\escape');
      }
    }
  }

  array(depth: number): PyValue {
    this.pos++;
    const items: PyValue[] = [];
    this.skip();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'list', items };
    }
    for (;;) {
      this.skip();
      items.push(this.value(depth + 1));
      this.skip();
      const ch = this.text[this.pos++];
      if (ch === ']') return { kind: 'list', items };
      if (ch !== ',') this.fail("Expecting ',' delimiter");
    }
  }

  object(depth: number): PyValue {
    this.pos++;
    const entries = new Map<string, PyValue>();
    this.skip();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'dict', entries };
    }
    for (;;) {
      this.skip();
      if (this.text[this.pos] !== '"') this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skip();
      if (this.text[this.pos++] !== ':') this.fail("Expecting ':' delimiter");
      this.skip();
      // A repeated key keeps its last value, as a Python dict built from pairs does.
      entries.set(key, this.value(depth + 1));
      this.skip();
      const ch = this.text[this.pos++];
      if (ch === '}') return { kind: 'dict', entries };
      if (ch !== ',') this.fail("Expecting ',' delimiter");
    }
  }
}

export function parsePyJson(text: string): PyValue {
  return new Parser(text).parseDocument();
}

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

/** Python `repr(float)`: the shortest digits that round-trip, fixed notation for exponents -4..15. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = x.toExponential().split('e') as [string, string];
  const e = Number(exp);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  if (e >= -4 && e < 16) {
    if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
    const whole = digits.slice(0, e + 1).padEnd(e + 1, '0');
    const frac = digits.slice(e + 1);
    return `${sign}${whole}.${frac || '0'}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python `repr(str)`. */
function pyReprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) {
      out +=
        code < 0x100
          ? `\\x${code.toString(16).padStart(2, '0')}`
          : code < 0x10000
            ? `\\u${code.toString(16).padStart(4, '0')}`
            : `\\U${code.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a json.loads result. */
export function pyRepr(value: PyValue): string {
  switch (value.kind) {
    case 'null':
      return 'None';
    case 'bool':
      return value.value ? 'True' : 'False';
    case 'int':
      return value.value.toString();
    case 'float':
      return pyFloatRepr(value.value);
    case 'str':
      return pyReprStr(value.value);
    case 'list':
      return `[${value.items.map(pyRepr).join(', ')}]`;
    case 'dict':
      return `{${[...value.entries].map(([k, v]) => `${pyReprStr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
}

/** Python `str()` of a json.loads result. */
export function pyStr(value: PyValue): string {
  return value.kind === 'str' ? value.value : pyRepr(value);
}
