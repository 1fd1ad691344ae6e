import type { Mode } from '../mode';
import { estimateCost, type PriceTable } from '../models/usage';

/**
 * What an attempt of a model with a price but no recording is assumed to use. Prompts are counted at
 * four characters a token plus a margin for the repository context a benchmark appends; answers are
 * short (a command list, a message, a JSON object). Upstream's recorded runs averaged about 190 input
 * and 17-34 output tokens per attempt, so this errs high, as an estimate before spending should.
 */
export const COST_ASSUMPTIONS = { charsPerToken: 4, contextTokens: 400, outputTokens: 256 } as const;

/** How one target's cost is known before it runs. */
export type TargetPricing =
  | { kind: 'free' }
  /** A replay: each answer costs what its recording says (null: the recording has no cost). */
  | { kind: 'recorded'; usdOf: (domain: string, fixtureId: string) => number | null }
  /** A real model, priced from the dated table by its base model. */
  | { kind: 'priced'; baseModel: string };

export interface CostEstimateTarget {
  modelId: string;
  outputMode: Mode;
}

export interface TargetCostEstimate extends CostEstimateTarget {
  /** Null when no price or recording covers it. */
  usd: number | null;
  basis: 'free' | 'recorded' | 'price table' | 'unknown';
  /** The price table entry's date, for a priced target. */
  priceDate?: string;
}

export interface CampaignCostEstimate {
  /** Null when any target's cost is unknown: a partial sum would understate what will be spent. */
  usd: number | null;
  targets: TargetCostEstimate[];
  /** One sentence on what the figure rests on, for the form. */
  note: string;
}

/** Tokens assumed for one attempt of a priced model (see COST_ASSUMPTIONS). */
export function assumedTokens(prompt: string): { inputTokens: number; outputTokens: number } {
  return {
    inputTokens: Math.ceil(prompt.length / COST_ASSUMPTIONS.charsPerToken) + COST_ASSUMPTIONS.contextTokens,
    outputTokens: COST_ASSUMPTIONS.outputTokens,
  };
}

/**
 * The cost of a planned campaign before launch, per target and in total: nothing for built-in models,
 * the recorded cost for replays, the dated price table for real models (agent runs make an unknown
 * number of calls, so they stay unknown), unknown for a model the table does not price.
 */
export function estimateCampaignCost<T extends CostEstimateTarget>(
  plan: { targets: readonly T[]; fixtures: readonly { domain: string; id: string; prompt: string }[]; trials: number },
  pricingOf: (target: T) => TargetPricing,
  table: PriceTable,
  at: Date,
): CampaignCostEstimate {
  const targets = plan.targets.map((target): TargetCostEstimate => {
    const base = { modelId: target.modelId, outputMode: target.outputMode };
    const pricing = pricingOf(target);
    if (pricing.kind === 'free') return { ...base, usd: 0, basis: 'free' };
    let usd: number | null = 0;
    let priceDate: string | undefined;
    for (const f of plan.fixtures) {
      let one: number | null;
      if (pricing.kind === 'recorded') one = pricing.usdOf(f.domain, f.id);
      else if (target.outputMode === 'agent') one = null;
      else {
        const cost = estimateCost(
          table,
          pricing.baseModel,
          { ...assumedTokens(f.prompt), reasoningTokens: null, totalTokens: null },
          at,
        );
        one = cost.usd;
        if (cost.source === 'estimated') priceDate = cost.priceDate;
      }
      usd = one === null || usd === null ? null : usd + one * plan.trials;
    }
    if (usd === null) return { ...base, usd: null, basis: 'unknown' };
    return pricing.kind === 'recorded'
      ? { ...base, usd, basis: 'recorded' }
      : { ...base, usd, basis: 'price table', ...(priceDate ? { priceDate } : {}) };
  });
  const unknown = [...new Set(targets.filter((t) => t.usd === null).map((t) => t.modelId))];
  const priced = [
    ...new Set(targets.filter((t) => t.basis === 'price table').map((t) => `${t.modelId} (prices of ${t.priceDate})`)),
  ];
  const recorded = targets.some((t) => t.basis === 'recorded');
  const parts = [
    priced.length > 0
      ? `From the dated price table for ${priced.join(', ')}, assuming per attempt the prompt ` +
        `at ${COST_ASSUMPTIONS.charsPerToken} characters a token plus ${COST_ASSUMPTIONS.contextTokens} ` +
        `tokens of repository context in, and ${COST_ASSUMPTIONS.outputTokens} tokens out.`
      : null,
    recorded ? 'Replays cost what their recordings say (nothing is called).' : null,
    targets.some((t) => t.basis === 'free') ? 'Built-in models make no paid calls.' : null,
    unknown.length > 0
      ? `No price or recording is known for ${unknown.join(', ')}; its cost will be recorded per attempt.`
      : null,
  ];
  const usd = unknown.length > 0 ? null : targets.reduce((t, x) => t + (x.usd ?? 0), 0);
  return { usd, targets, note: parts.filter(Boolean).join(' ') };
}
