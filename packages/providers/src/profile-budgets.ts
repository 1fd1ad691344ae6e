import type { BudgetLimits } from './budget';
import type { ProfileSet } from './profiles';

/** Request budgets as configured: global and per group at the top level, per profile and its groups. */
export function budgetLimitsFromProfiles(set: ProfileSet): BudgetLimits {
  const groups: NonNullable<BudgetLimits['groups']> = {};
  for (const group of [...set.concurrency.groups, ...set.profiles.flatMap((p) => p.concurrency.groups)]) {
    groups[group.key] ??= { maxConcurrent: group.maxConcurrent, minIntervalMs: group.minIntervalMs };
  }
  return {
    global: { maxConcurrent: set.concurrency.maxConcurrent, minIntervalMs: set.concurrency.minIntervalMs },
    profiles: Object.fromEntries(
      set.profiles.map((p) => [
        p.name,
        { maxConcurrent: p.concurrency.maxConcurrent, minIntervalMs: p.concurrency.minIntervalMs },
      ]),
    ),
    groups,
  };
}
