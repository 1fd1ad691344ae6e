import type { Rate } from '@gitbench/core';
import { fraction, pct } from './format';

/** A rate with its numerator/denominator and Wilson 95% interval drawn as a bar. */
export function RateCell({
  rate,
  bar = true,
  what = 'passed',
  testId,
}: {
  rate: Rate;
  bar?: boolean;
  what?: string;
  testId?: string;
}) {
  const title =
    rate.value === null
      ? 'No valid attempts: no evidence, so no rate.'
      : `${fraction(rate)} ${what}; 95% Wilson interval ${pct(rate.interval?.low)}–${pct(rate.interval?.high)}`;
  return (
    <div className="min-w-28" title={title} data-testid={testId}>
      <div className="flex items-baseline gap-2">
        <span className="font-medium tabular-nums">{pct(rate.value)}</span>
        <span className="text-xs tabular-nums text-slate-500">{fraction(rate)}</span>
      </div>
      {bar && rate.value !== null && rate.interval ? (
        <div className="relative mt-1 h-1.5 w-28 rounded bg-slate-200" aria-hidden>
          <div
            className="absolute top-0 h-1.5 rounded bg-indigo-300"
            style={{
              left: `${rate.interval.low * 100}%`,
              width: `${Math.max(1, (rate.interval.high - rate.interval.low) * 100)}%`,
            }}
          />
          <div
            className="absolute -top-0.5 h-2.5 w-0.5 bg-indigo-700"
            style={{ left: `calc(${rate.value * 100}% - 1px)` }}
          />
        </div>
      ) : null}
    </div>
  );
}
