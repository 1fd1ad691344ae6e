import { describe, expect, it } from 'vitest';
import type { Fixture } from '@gitbench/core';
import { buildBatches, MAX_BATCH_FILE_CHARS } from '../src/build-fixture-repository';

/** A fixture whose files carry `chars` characters of base64: all buildBatches reads of it. */
function fixture(id: number, chars: number): Fixture {
  const files = chars > 0 ? [{ asset: `a${id}`, sha256: '', base64: 'A'.repeat(chars), to: 'x', unpack: false }] : [];
  return { domain: 'd', id: `f${id}`, files } as unknown as Fixture;
}

const fileChars = (fixtures: Fixture[], batch: number[]) =>
  batch.reduce((n, i) => n + (fixtures[i]!.files ?? []).reduce((m, f) => m + f.base64.length, 0), 0);

describe('buildBatches', () => {
  it('deals fixtures without files out in turn, at most perSandbox per batch, each exactly once', () => {
    const fixtures = Array.from({ length: 80 }, (_, i) => fixture(i, 0));
    const batches = buildBatches(fixtures, { sandboxes: 2, perSandbox: 40 });
    expect(batches.map((b) => b.length)).toEqual([40, 40]);
    expect(batches[0]!.slice(0, 3)).toEqual([0, 2, 4]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(fixtures.map((_, i) => i));
  });

  it("keeps every batch's files under the budget, where 80 hard-tier fixtures in 2 batches ran out of memory", () => {
    // The hard tier's shape: 80 fixtures carrying 0.5 to 5 MB of git bundles each, about 96 MB in all.
    const fixtures = Array.from({ length: 80 }, (_, i) => fixture(i, 500_000 + (i % 10) * 450_000));
    const batches = buildBatches(fixtures, { sandboxes: 2, perSandbox: 40, maxBatchFileChars: 16_000_000 });
    for (const b of batches) expect(fileChars(fixtures, b)).toBeLessThanOrEqual(16_000_000);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(fixtures.map((_, i) => i));
  });

  it('builds a fixture over the budget alone rather than refusing it', () => {
    const fixtures = [fixture(0, 100), fixture(1, MAX_BATCH_FILE_CHARS + 1), fixture(2, 100)];
    const batches = buildBatches(fixtures, { sandboxes: 1 });
    expect(batches).toContainEqual([1]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });
});
