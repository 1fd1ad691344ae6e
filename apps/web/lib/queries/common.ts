import {
  ATTEMPT_STATUSES,
  DIFFICULTIES,
  completenessPartOf,
  isValidOutcome,
  rateOf,
  type AttemptStatus,
  type Rate,
  type TargetKey,
} from '@gitbench/core';
import { Prisma, sqlNumber } from '@gitbench/db';

/**
 * Shared vocabulary of the dashboard's query modules. Modules take the Prisma client as an argument
 * (the app passes its singleton, the bench and tests their own) and return plain, chart-ready data.
 */

export function targetLabel(t: TargetKey): string {
  return `${t.modelId} · ${t.outputMode}`;
}

/** Statuses that are not quality outcomes, from core's definitions, for `status = ANY(...)` in SQL. */
export const NON_VALID_STATUSES: AttemptStatus[] = ATTEMPT_STATUSES.filter((s) => !isValidOutcome(s));
export const BLOCKING_STATUSES: AttemptStatus[] = ATTEMPT_STATUSES.filter((s) => completenessPartOf(s) !== null);

export function statusArraySql(statuses: readonly AttemptStatus[]): Prisma.Sql {
  return Prisma.sql`ARRAY[${Prisma.join(statuses.map((s) => Prisma.sql`${s}`))}]::"AttemptStatus"[]`;
}

export { rateOf, type Rate };
// A target's figures are defined by core (target-figures.ts), summed by db from the stored stats.
export type { Classification, PassAnySummary, Resource, TargetKey } from '@gitbench/core';

/** SQL sums come back as bigint or Decimal depending on type; the dashboard wants plain numbers. */
export const num = sqlNumber;

export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

/** Difficulties read in their own order (trivial to expert, then anything else), not alphabetically. */
export function difficultyRank(d: string): number {
  const i = (DIFFICULTIES as readonly string[]).indexOf(d);
  return i < 0 ? DIFFICULTIES.length : i;
}
