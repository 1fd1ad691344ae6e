import { z } from 'zod';
import { globMatch } from './glob';

/** Token counts as reported for one call. `null` means the provider did not say, never zero. */
export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  totalTokens: number | null;
}

export const COST_SOURCES = ['provider', 'estimated', 'unknown'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

/**
 * What a call cost. `provider`: reported by the provider (OpenRouter's usage.cost). `estimated`:
 * computed from the dated price table (`priceDate` names the entry). `unknown`: shown as "—", never 0.
 */
export type Cost =
  | { source: 'provider'; usd: number }
  | { source: 'estimated'; usd: number; priceDate: string }
  | { source: 'unknown'; usd: null };

export const UNKNOWN_COST: Cost = { source: 'unknown', usd: null };

export function emptyUsage(): TokenUsage {
  return { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null };
}

/** One entry of the price table: USD per million tokens, valid from `date` on. */
export const priceEntrySchema = z
  .object({
    /** Glob on the base model id, e.g. `openai/gpt-4o-mini` or `mistralai/*`. */
    model: z.string().min(1),
    date: z.iso.date(),
    inputPerMillion: z.number().nonnegative(),
    outputPerMillion: z.number().nonnegative(),
    /** Where the price was read, so a reader can check it. */
    source: z.string().optional(),
  })
  .strict();
export type PriceEntry = z.infer<typeof priceEntrySchema>;

export const priceTableSchema = z.object({ prices: z.array(priceEntrySchema) }).strict();
export type PriceTable = z.infer<typeof priceTableSchema>;

/**
 * Estimates the cost of a call from the price table: the newest entry dated on or before `at` whose
 * glob matches the base model. Reasoning tokens are billed as output tokens by every provider we know,
 * and providers already include them in the output count, so they are not added twice.
 */
export function estimateCost(table: PriceTable, baseModel: string, usage: TokenUsage, at: Date): Cost {
  if (usage.inputTokens === null || usage.outputTokens === null) return UNKNOWN_COST;
  const day = at.toISOString().slice(0, 10);
  const entry = table.prices
    .filter((p) => p.date <= day && globMatch(p.model, baseModel))
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))[0];
  if (!entry) return UNKNOWN_COST;
  const usd = (usage.inputTokens * entry.inputPerMillion + usage.outputTokens * entry.outputPerMillion) / 1_000_000;
  return { source: 'estimated', usd, priceDate: entry.date };
}

/** What one model call cost, as every call of an attempt records it. */
export interface CallUsage {
  usage: TokenUsage;
  cost: Cost;
  apiDurationMs: number;
}

/** Usage, cost and API time summed over every model call of an attempt. */
export interface UsageTotals extends TokenUsage {
  /** Null when a call's cost is unknown: a partial sum would understate what was spent. */
  costUsd: number | null;
  /** Some call's cost came from the price table rather than the provider. */
  costEstimated: boolean;
  apiDurationMs: number;
  calls: number;
}

/** The sum of counts, or null when there are none or any is unknown. */
export const sumKnown = (values: readonly (number | null)[]): number | null =>
  values.length === 0 || values.some((v) => v === null) ? null : values.reduce<number>((t, v) => t + (v as number), 0);

/**
 * Sums every call of an attempt (an agent makes many). A count any call did not report makes the total
 * unknown (null), never a smaller number; no call at all is unknown too.
 */
export function sumCallUsage(calls: readonly CallUsage[]): UsageTotals {
  return {
    inputTokens: sumKnown(calls.map((c) => c.usage.inputTokens)),
    outputTokens: sumKnown(calls.map((c) => c.usage.outputTokens)),
    reasoningTokens: sumKnown(calls.map((c) => c.usage.reasoningTokens)),
    totalTokens: sumKnown(calls.map((c) => c.usage.totalTokens)),
    costUsd: sumKnown(calls.map((c) => c.cost.usd)),
    costEstimated: calls.some((c) => c.cost.source === 'estimated'),
    apiDurationMs: calls.reduce((t, c) => t + c.apiDurationMs, 0),
    calls: calls.length,
  };
}
