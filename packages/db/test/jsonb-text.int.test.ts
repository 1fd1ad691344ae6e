import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonbSafe, jsonbText } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

// A model's output may hold NUL bytes, and PostgreSQL's jsonb refuses U+0000: the evidence and
// trajectory writes must store it as something jsonb takes, or a model could fail its own attempt's
// write on purpose and have it excluded as the worker's error.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'jsonb');
});
afterAll(async () => t?.drop());

const evidence = {
  output: 'before\u0000after',
  commands: [{ stdout: '\u0000\u0000' }],
  literal: 'a \\u0000 typed as text',
};

describe('jsonbText', () => {
  it('stores U+0000 as U+FFFD and leaves the text "\\u0000" a string may hold alone', () => {
    expect(JSON.parse(jsonbText(evidence))).toEqual({
      output: 'before\ufffdafter',
      commands: [{ stdout: '\ufffd\ufffd' }],
      literal: 'a \\u0000 typed as text',
    });
    expect(jsonbSafe(evidence).output).toBe('before\ufffdafter');
    expect(jsonbText({ ok: 'plain' })).toBe(JSON.stringify({ ok: 'plain' }));
  });

  it('is JSON PostgreSQL takes as jsonb, where the plain JSON of the same value is refused', async () => {
    await expect(t.db.$queryRawUnsafe('SELECT $1::jsonb AS v', JSON.stringify(evidence))).rejects.toThrow(
      /unsupported Unicode escape sequence/,
    );
    const [row] = await t.db.$queryRawUnsafe<{ v: typeof evidence }[]>('SELECT $1::jsonb AS v', jsonbText(evidence));
    expect(row!.v).toEqual({
      output: 'before\ufffdafter',
      commands: [{ stdout: '\ufffd\ufffd' }],
      literal: 'a \\u0000 typed as text',
    });
  });
});
