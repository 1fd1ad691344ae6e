/**
 * Which fixtures the oracle-every-fixture check runs, and whether a pass may be recorded as its fingerprint.
 * GITBENCH_ORACLE_FIXTURES names `domain/id` keys (comma- or space-separated) to check only those, e.g. a task
 * being written: such a run is due whatever the fingerprint says and never records it, since it did not
 * cover every fixture. GITBENCH_ORACLE_EVERY_FIXTURE=1 runs every fixture even while the fingerprint is current.
 */
export interface OraclePlan {
  /** The keys to check, or null for every fixture. */
  keys: ReadonlySet<string> | null;
  due: boolean;
  /** Whether a pass of this run may write the fingerprint file. */
  mayRecord: boolean;
}

export function oraclePlan(
  env: Readonly<Record<string, string | undefined>>,
  fingerprint: { current: string; recorded: string },
): OraclePlan {
  const keys = (env.GITBENCH_ORACLE_FIXTURES ?? '').split(/[\s,]+/).filter(Boolean);
  if (keys.length > 0) return { keys: new Set(keys), due: true, mayRecord: false };
  return {
    keys: null,
    due: fingerprint.current !== fingerprint.recorded || env.GITBENCH_ORACLE_EVERY_FIXTURE === '1',
    mayRecord: true,
  };
}

/** The fixtures a plan checks, and the keys it names that no fixture has (a typo to fail on, not an empty run). */
export function selectForOracle<F>(
  plan: OraclePlan,
  fixtures: readonly F[],
  key: (f: F) => string,
): { selected: F[]; unknown: string[] } {
  const chosen = plan.keys;
  if (!chosen) return { selected: [...fixtures], unknown: [] };
  const known = new Set(fixtures.map(key));
  return {
    selected: fixtures.filter((f) => chosen.has(key(f))),
    unknown: [...chosen].filter((k) => !known.has(k)).sort(),
  };
}
