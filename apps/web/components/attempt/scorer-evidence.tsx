import type { AttemptEvidence, ScoreCheck } from '@gitbench/core';
import { JsonBlock, Pre } from '@/components/evidence';
import { DASH } from '@/components/format';

/** What the scorer (or, for an imported try, upstream) recorded, split into its checks and the rest. */
export function scorerParts(
  ev: AttemptEvidence | null,
): { checks: ScoreCheck[]; rest: Record<string, unknown> } | null {
  if (!ev) return null;
  if (ev.origin === 'upstream') return { checks: [], rest: { source: 'upstream', ...ev.verdict } };
  if (!ev.scoring && !ev.judge) return null;
  // Hashes have their own section and the verdict is printed above; the rest stays one click away.
  const { checks = [], hashes: _hashes, ...scoring } = ev.scoring ?? {};
  // The history judge's calls as the LLM judge's members are shown: reply, usage, cost, time, route.
  const historyJudge = ev.historyJudgeCalls?.map((c) => ({
    output: c.output,
    usage: c.usage,
    cost: c.cost,
    apiDurationMs: c.apiDurationMs,
    route: c.route,
    retries: c.retries,
  }));
  return {
    checks,
    rest: { ...scoring, judge: ev.judge, ...(historyJudge ? { historyJudgeCalls: historyJudge } : {}) },
  };
}

/** The first failing check, as the trajectory links to it: its anchor on this page and its name. */
export function failingCheckOf(ev: AttemptEvidence | null): { anchor: string; name: string } | null {
  const checks = scorerParts(ev)?.checks ?? [];
  const failing = checks.findIndex((c) => !c.ok);
  return failing >= 0 ? { anchor: `check-${failing}`, name: checks[failing]!.check } : null;
}

function CheckItem({ check: c, index }: { check: ScoreCheck; index: number }) {
  return (
    <li
      id={`check-${index}`}
      className={
        `rounded border p-3 ` + `text-sm ${c.ok ? 'border-emerald-200 bg-emerald-50' : 'border-rose-200 bg-rose-50'}`
      }
    >
      <div className="flex items-center gap-2 font-medium">
        <span aria-hidden>{c.ok ? '✓' : '✗'}</span>
        <span>{c.check}</span>
        <span className={`text-xs ${c.ok ? 'text-emerald-700' : 'text-rose-700'}`}>{c.ok ? 'held' : 'failed'}</span>
      </div>
      {c.detail ? <p className="mt-1 whitespace-pre-wrap break-words text-slate-700">{c.detail}</p> : null}
      {c.expected !== undefined || c.actual !== undefined ? (
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <div>
            <div className="text-xs text-slate-500">expected</div>
            <Pre copy={c.expected ? 'expected value' : undefined}>{c.expected ?? DASH}</Pre>
          </div>
          <div>
            <div className="text-xs text-slate-500">actual</div>
            <Pre copy={c.actual ? 'actual value' : undefined}>{c.actual ?? DASH}</Pre>
          </div>
        </div>
      ) : null}
    </li>
  );
}

export function ScorerEvidence({ evidence }: { evidence: AttemptEvidence | null }) {
  const parts = scorerParts(evidence);
  if (!parts) return <p className="text-sm text-slate-500">The scorer recorded no evidence for this try.</p>;
  const { checks, rest } = parts;
  return (
    <div className="space-y-3">
      {checks.length > 0 ? (
        <ul className="space-y-2" data-testid="scorer-checks">
          {checks.map((c, i) => (
            <CheckItem key={i} check={c} index={i} />
          ))}
        </ul>
      ) : null}
      {Object.keys(rest).length > 0 ? (
        <details>
          <summary className="cursor-pointer text-sm text-slate-600">Everything the scorer recorded</summary>
          <JsonBlock value={rest} label="scorer evidence" />
        </details>
      ) : null}
    </div>
  );
}
