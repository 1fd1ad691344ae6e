const STYLES: Record<string, string> = {
  VALID_PASS: 'bg-emerald-100 text-emerald-800',
  VALID_FAIL: 'bg-rose-100 text-rose-800',
  INFRA_FAILURE: 'bg-amber-100 text-amber-800',
  UNSCORED: 'bg-amber-100 text-amber-800',
  HASH_MISMATCH: 'bg-amber-100 text-amber-800',
  INVALID_INPUT: 'bg-amber-100 text-amber-800',
  SAFETY_BLOCKED: 'bg-fuchsia-100 text-fuchsia-800',
  CANCELLED: 'bg-slate-200 text-slate-700',
  QUEUED: 'bg-slate-100 text-slate-600',
  RUNNING: 'bg-sky-100 text-sky-800',
  COMPLETED: 'bg-emerald-100 text-emerald-800',
  FAILED: 'bg-rose-100 text-rose-800',
  PLANNING: 'bg-slate-100 text-slate-600',
  stable_pass: 'bg-emerald-100 text-emerald-800',
  stable_fail: 'bg-rose-100 text-rose-800',
  flaky: 'bg-amber-100 text-amber-800',
  unknown: 'bg-slate-100 text-slate-600',
  legacy: 'bg-violet-100 text-violet-800',
};

const LABELS: Record<string, string> = {
  VALID_PASS: 'pass',
  VALID_FAIL: 'fail',
  INFRA_FAILURE: 'infra failure',
  UNSCORED: 'unscored',
  HASH_MISMATCH: 'hash mismatch',
  INVALID_INPUT: 'invalid input',
  SAFETY_BLOCKED: 'safety blocked',
  stable_pass: 'stable pass',
  stable_fail: 'stable fail',
};

export function statusLabel(status: string): string {
  return LABELS[status] ?? status.toLowerCase().replace(/_/g, ' ');
}

export function StatusBadge({ status, title }: { status: string; title?: string }) {
  return (
    <span
      title={title}
      className={
        `inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs ` +
        `font-medium ${STYLES[status] ?? 'bg-slate-100 text-slate-700'}`
      }
    >
      {statusLabel(status)}
    </span>
  );
}

export function LegacyBadge() {
  return (
    <span
      className="inline-block rounded bg-violet-100 px-1.5 py-0.5 text-xs font-medium text-violet-800"
      title="Imported from an upstream result file: one trial, no stability or pass_any_at_n claims."
    >
      legacy
    </span>
  );
}

/** Results of the seeded stochastic stand-in: every place that shows them says they are simulated. */
export function SimulatedBadge() {
  return (
    <span
      className="inline-block rounded bg-orange-100 px-1.5 py-0.5 text-xs font-medium text-orange-800"
      title={
        'Simulated: a seeded coin answered, not a model. Useful to see flaky ' +
        'classifications and pass_any_at_n; says nothing about any model.'
      }
    >
      simulated
    </span>
  );
}

/** A person worked it (gitbench human): a baseline beside the models, never ranked among them. */
export function HumanBadge() {
  return (
    <span
      className="inline-block rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800"
      title={
        "Human baseline: a person worked these attempts in the same sandbox, with the agent's " +
        'tools, limits and scoring (gitbench human). Shown beside the models, not ranked among them.'
      }
    >
      human
    </span>
  );
}

/** Recorded answers of a real model played back: every place that shows them says they are a replay. */
export function ReplayBadge() {
  return (
    <span
      className="inline-block rounded bg-sky-100 px-1.5 py-0.5 text-xs font-medium text-sky-800"
      title={
        "Replay: a real model's recorded answers (with the tokens, cost and latency " +
        "recorded then) played back through today's scoring; no model was called."
      }
    >
      replay
    </span>
  );
}

/**
 * A fixture series' class. A series of one planned trial has one attempt, which shows no stability:
 * it reads "single trial: pass" (or fail), never "stable pass".
 */
export function SeriesClassBadge({
  cls,
  plannedTrials,
  title,
}: {
  cls: string;
  plannedTrials: number;
  title?: string;
}) {
  if (plannedTrials <= 1 && (cls === 'stable_pass' || cls === 'stable_fail')) {
    const pass = cls === 'stable_pass';
    return (
      <span
        title={title ?? 'One trial: a single attempt says nothing about stability'}
        className={
          `inline-block whitespace-nowrap rounded border px-1.5 py-0.5 text-xs ` +
          `font-medium ${pass ? 'border-emerald-300 text-emerald-800' : 'border-rose-300 text-rose-800'}`
        }
      >
        single trial: {pass ? 'pass' : 'fail'}
      </span>
    );
  }
  return <StatusBadge status={cls} {...(title === undefined ? {} : { title })} />;
}
