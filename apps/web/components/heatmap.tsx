import type { Rate } from '@gitbench/core';
import { fraction, pct } from './format';
import { ModelLabel } from './target-name';

/**
 * Domain × target grid of mean success: one row per domain (there are many, and their names are
 * long), one column per target. Colour runs from red (0%) to green (100%); blank without evidence.
 */
export function Heatmap({
  targets,
  domains,
  cell,
}: {
  targets: { id: string; modelId: string; outputMode: string; agent?: string | null }[];
  domains: string[];
  cell: (targetId: string, domain: string) => Rate | undefined;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <p className="px-3 pt-2 text-xs text-slate-500">
        Passing valid attempts ÷ valid attempts per domain. Blank cells have no valid attempt.
      </p>
      <table className="text-xs" data-testid="heatmap">
        <thead>
          <tr>
            <th scope="col" className="px-3 py-2 text-left font-medium text-slate-500">
              Domain
            </th>
            {targets.map((t) => (
              <th
                key={t.id}
                scope="col"
                className="max-w-40 px-2 py-2 text-left align-bottom font-medium text-slate-700"
              >
                <ModelLabel modelId={t.modelId} outputMode={t.outputMode} agent={t.agent} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {domains.map((d) => (
            <tr key={d}>
              <th scope="row" className="whitespace-nowrap px-3 py-1 text-left font-medium">
                {d}
              </th>
              {targets.map((t) => {
                const rate = cell(t.id, d);
                const v = rate?.value ?? null;
                // The pastel fill is the same in dark mode, so the text on it keeps one dark colour too.
                const style =
                  v === null
                    ? {}
                    : { backgroundColor: `hsl(${Math.round(v * 120)} 65% ${88 - v * 18}%)`, color: '#0f172a' };
                return (
                  <td
                    key={t.id}
                    className="min-w-20 border border-white px-2 py-1 text-center tabular-nums"
                    style={style}
                    title={
                      rate && rate.denominator > 0
                        ? `${d}: ${fraction(rate)} valid attempts passed`
                        : `${d}: no valid attempts`
                    }
                  >
                    <span>{pct(v, 0)}</span>{' '}
                    <span className="text-[10px] opacity-70">{rate ? fraction(rate) : ''}</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
