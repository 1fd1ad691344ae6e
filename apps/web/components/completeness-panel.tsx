import type { Completeness } from '@gitbench/core';

const PARTS: { key: keyof Completeness['parts']; title: string; ok: string }[] = [
  {
    key: 'targetAttempts',
    title: 'Target attempts',
    ok: 'Every planned attempt finished with a valid quality outcome.',
  },
  { key: 'judgeScoring', title: 'Judge scoring', ok: 'No attempt is left unscored by an exhausted judge.' },
  { key: 'safetyReview', title: 'Safety review', ok: 'The safety review is in an allowed state.' },
];

export function CompletenessPanel({
  completeness,
  legacy,
  safetyReview,
}: {
  completeness: Completeness;
  legacy: boolean;
  safetyReview?: string;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="completeness">
      <p className={`text-sm font-medium ${completeness.complete ? 'text-emerald-700' : 'text-amber-700'}`}>
        {completeness.complete
          ? legacy
            ? 'Complete, but legacy: shown only when legacy campaigns are included.'
            : 'Complete: this campaign counts in default rankings.'
          : 'Incomplete: inspectable here, left out of default rankings.'}
      </p>
      <ul className="mt-3 grid gap-3 sm:grid-cols-3">
        {PARTS.map((p) => {
          const part = completeness.parts[p.key];
          // No reviewer: the review does not hold the campaign back, but nothing was reviewed either.
          const notConfigured = p.key === 'safetyReview' && part.ok && safetyReview === 'not_configured';
          return (
            <li key={p.key} className="rounded border border-slate-100 p-3">
              <div className="flex items-center gap-2 text-sm font-medium">
                <span
                  aria-hidden
                  className={
                    `h-2.5 w-2.5 ` +
                    `rounded-full ${notConfigured ? 'bg-slate-400' : part.ok ? 'bg-emerald-500' : 'bg-amber-500'}`
                  }
                />
                {p.title}: {notConfigured ? 'not configured' : part.ok ? 'ok' : 'not yet'}
              </div>
              <ul className="mt-1 space-y-0.5 text-xs text-slate-600">
                {notConfigured ? (
                  <li>No safety reviewer is configured: the outputs were not reviewed.</li>
                ) : part.ok ? (
                  <li>{p.ok}</li>
                ) : (
                  part.reasons.map((r) => <li key={r.code}>{r.message}</li>)
                )}
              </ul>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
