import {
  estimateCost,
  priceTableSchema,
  UNKNOWN_COST,
  type Cost,
  type PriceTable,
  type TokenUsage,
} from '@gitbench/core';
import rawPrices from './prices.json';

/** The dated price table kept in the repository (src/prices.json), validated once at load. */
export const PRICE_TABLE: PriceTable = priceTableSchema.parse(rawPrices);

/**
 * Cost of one call, best source first: what the provider reported, else an estimate from the price
 * table (marked estimated, with the price's date), else unknown. Never 0 for "we do not know".
 */
export function resolveCost(
  reportedUsd: number | null | undefined,
  baseModel: string,
  usage: TokenUsage,
  options: { table?: PriceTable; at?: Date } = {},
): Cost {
  if (typeof reportedUsd === 'number' && Number.isFinite(reportedUsd) && reportedUsd >= 0) {
    return { source: 'provider', usd: reportedUsd };
  }
  const table = options.table ?? PRICE_TABLE;
  return table.prices.length === 0 ? UNKNOWN_COST : estimateCost(table, baseModel, usage, options.at ?? new Date());
}
