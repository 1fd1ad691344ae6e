import { describe, expect, it } from 'vitest';
import { assumedTokens, estimateCampaignCost, type TargetPricing } from '../../src/campaign/cost-estimate';
import type { PriceTable } from '../../src/models/usage';

const table: PriceTable = {
  prices: [
    { model: 'openai/gpt-4o-mini', date: '2024-07-18', inputPerMillion: 0.15, outputPerMillion: 0.6 },
    { model: 'openai/gpt-4o-mini', date: '2030-01-01', inputPerMillion: 99, outputPerMillion: 99 },
  ],
};
const fixtures = [
  { domain: 'a', id: 'f1', prompt: 'x'.repeat(400) },
  { domain: 'b', id: 'f2', prompt: 'y'.repeat(40) },
];
const at = new Date('2026-11-24T00:00:00Z');
type T = { modelId: string; outputMode: 'text' | 'json_schema' | 'agent' };
const pricing =
  (recorded: Record<string, number | null> = {}) =>
  (t: T): TargetPricing =>
    t.modelId === 'mock'
      ? { kind: 'free' }
      : t.modelId.startsWith('replay:')
        ? { kind: 'recorded', usdOf: (d, f) => recorded[`${d}/${f}`] ?? null }
        : { kind: 'priced', baseModel: t.modelId };

describe('campaign cost estimate before launch', () => {
  it('prices real models from the dated table (the entry in force today), times fixtures and trials', () => {
    const e = estimateCampaignCost(
      { targets: [{ modelId: 'openai/gpt-4o-mini', outputMode: 'text' }], fixtures, trials: 3 },
      pricing(),
      table,
      at,
    );
    const tokens = fixtures.map((f) => assumedTokens(f.prompt));
    const one = tokens.reduce((t, x) => t + (x.inputTokens * 0.15 + x.outputTokens * 0.6) / 1e6, 0);
    expect(e.usd).toBeCloseTo(one * 3, 12);
    expect(e.targets[0]).toMatchObject({ basis: 'price table', priceDate: '2024-07-18' });
    expect(e.note).toMatch(/openai\/gpt-4o-mini \(prices of 2024-07-18\)/);
  });

  it('sums recorded costs for replays, nothing for built-in models, and is unknown (never 0) when anything is', () => {
    const targets: T[] = [
      { modelId: 'mock', outputMode: 'text' },
      { modelId: 'replay:r', outputMode: 'text' },
    ];
    const known = estimateCampaignCost(
      { targets, fixtures, trials: 2 },
      pricing({ 'a/f1': 0.001, 'b/f2': 0.002 }),
      table,
      at,
    );
    expect(known.usd).toBeCloseTo(0.006, 12);
    expect(known.targets.map((t) => t.basis)).toEqual(['free', 'recorded']);
    const missing = estimateCampaignCost({ targets, fixtures, trials: 2 }, pricing({ 'a/f1': 0.001 }), table, at);
    expect(missing.usd).toBeNull();
    expect(missing.note).toMatch(/No price or recording is known for replay:r/);
    const unpriced = estimateCampaignCost(
      { targets: [{ modelId: 'acme/unknown', outputMode: 'text' }], fixtures, trials: 1 },
      pricing(),
      table,
      at,
    );
    expect(unpriced.usd).toBeNull();
    const agent = estimateCampaignCost(
      { targets: [{ modelId: 'openai/gpt-4o-mini', outputMode: 'agent' }], fixtures, trials: 1 },
      pricing(),
      table,
      at,
    );
    expect(agent.usd).toBeNull();
  });
});
