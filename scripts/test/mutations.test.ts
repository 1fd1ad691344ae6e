import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MUTATIONS } from '../lib/mutations';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The mutation audit plants each bug by replacing `from` once; code moved or rewrapped since leaves a
// mutant that plants nothing, and the audit would only say so when someone runs it. Checked here, on
// every run.
describe('the mutation audit’s planted bugs', () => {
  it.each(MUTATIONS.map((m) => [m.id, m] as const))('%s still finds its line, once', (_id, m) => {
    const file = path.join(ROOT, m.file);
    expect(existsSync(file), `${m.file} exists`).toBe(true);
    if (m.from === undefined) return;
    const text = readFileSync(file, 'utf8');
    expect(text.split(m.from).length - 1, `${m.file} holds ${JSON.stringify(m.from)} once`).toBe(1);
  });
});
