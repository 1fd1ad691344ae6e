/**
 * Python's `json.loads`: accepts NaN and ±Infinity and keeps integers exact at any size, where JSON.parse
 * would round them (see python-value.ts for why that matters).
 */
import type { PyValue } from './python-value';

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
