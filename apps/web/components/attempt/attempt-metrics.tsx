import { DASH, duration, int, usd } from '@/components/format';
import type { AttemptRecord } from '@/lib/queries/attempt';

/** Tokens, cost, API time and wall time, each in its own tile. */
export function AttemptMetrics({ a }: { a: AttemptRecord }) {
  const tokens =
    `${int(a.totalTokens)} (in ${int(a.inputTokens)}, ` +
    `out ${int(a.outputTokens)}, reasoning ${int(a.reasoningTokens)})`;
  const metrics = [
    ['Tokens', a.totalTokens === null ? DASH : tokens],
    ['Cost', a.costUsd === null ? `${DASH} unknown` : `${usd(a.costUsd)}${a.costEstimated ? ' (estimated)' : ''}`],
    ['API time', duration(a.apiDurationMs)],
    ['Wall time', duration(a.wallDurationMs)],
  ];
  return (
    <div className="grid gap-3 sm:grid-cols-4">
      {metrics.map(([k, v]) => (
        <div key={k} className="rounded-lg border border-slate-200 bg-white p-3">
          <div className="text-xs text-slate-500">{k}</div>
          <div
            className="text-sm font-medium tabular-nums"
            data-testid={`metric-${String(k).toLowerCase().replace(' ', '-')}`}
          >
            {v}
          </div>
        </div>
      ))}
    </div>
  );
}
