export interface EtaInput {
  /** Attempts not yet finished (QUEUED or RUNNING). */
  remainingAttempts: number;
  /** Wall durations of finished attempts; recent ones predict best, so callers may pass only the latest. */
  completedDurationsMs: readonly number[];
  /** Attempts that run at once for this campaign (workers × per-worker concurrency, capped by config). */
  concurrency: number;
}

export interface Eta {
  /** Null while there is nothing to extrapolate from. */
  remainingMs: number | null;
  /** How many finished attempts the estimate rests on. */
  basedOn: number;
}

/**
 * Remaining time ≈ remaining attempts × mean attempt duration ÷ concurrency. The mean, not the median:
 * total time is a sum of durations, and a few slow attempts (long reasoning, retries) really do add up.
 * Integer rounding of "waves" is ignored because attempts of very different lengths do not run in waves.
 */
export function estimateEta(input: EtaInput): Eta {
  const durations = input.completedDurationsMs.filter((d) => Number.isFinite(d) && d >= 0);
  if (input.remainingAttempts <= 0) return { remainingMs: 0, basedOn: durations.length };
  if (durations.length === 0) return { remainingMs: null, basedOn: 0 };
  const mean = durations.reduce((sum, d) => sum + d, 0) / durations.length;
  const parallel = Math.max(1, Math.floor(input.concurrency));
  return { remainingMs: Math.round((input.remainingAttempts * mean) / parallel), basedOn: durations.length };
}

/** One target of a campaign not launched yet: its planned attempts and how long its recent attempts took. */
export interface TargetTime {
  attempts: number;
  /** Mean wall time of the model's latest finished attempts in this output mode; null when it has none. */
  meanMs: number | null;
}

export interface CampaignTimeEstimate {
  /** Null when no target has a history, or no worker is there to run anything. */
  ms: number | null;
  /** Targets with no finished attempt to go by: when some are, `ms` counts the others only (a lower bound). */
  unknownTargets: number;
  concurrency: number;
}

/**
 * Before launch, as estimateEta does while running: each target's attempts × its mean attempt time,
 * summed, over the attempts the live workers run at once.
 */
export function estimateCampaignTime(targets: readonly TargetTime[], concurrency: number): CampaignTimeEstimate {
  const parallel = Math.max(0, Math.floor(concurrency));
  const known = targets.filter((t) => t.meanMs !== null && Number.isFinite(t.meanMs));
  const unknownTargets = targets.length - known.length;
  if (parallel === 0 || known.length === 0) return { ms: null, unknownTargets, concurrency: parallel };
  const total = known.reduce((sum, t) => sum + t.attempts * t.meanMs!, 0);
  return { ms: Math.round(total / parallel), unknownTargets, concurrency: parallel };
}
