import { logAxisTicks, QUADRANT_LABELS, QUADRANTS, type Quadrant } from '@gitbench/core';
import { DataTable, type Column } from '@/components/data-table';
import { fraction, pct } from '@/components/format';
import { QuadrantChart } from '@/components/quadrant-chart';
import { QUADRANT_COLORS } from '@/components/quadrant-colors';
import { TargetName } from '@/components/target-name';
import type { DashboardFilters } from '@/lib/queries/filters';
import type { QuadrantMetric, QuadrantReport } from '@/lib/queries/quadrant';

type PlacedPoint = QuadrantReport['placed'][number];

/** The chart's points, numbered as the list below numbers them, with the interval as error bars. */
function chartPoints(q: QuadrantReport) {
  return q.placed.map((p, i) => ({
    x: p.x,
    y: p.y,
    label: p.label,
    mark: String(i + 1),
    quadrant: p.quadrant,
    passes: p.passes,
    valid: p.valid,
    err: [p.y - (p.low ?? p.y), (p.high ?? p.y) - p.y] as [number, number],
  }));
}

/** Which colour is which of the four groups the medians make. */
function ColourKey() {
  return (
    <ul className="flex flex-wrap gap-4 text-xs text-slate-600" aria-label="Colour key">
      {QUADRANTS.map((k) => (
        <li key={k} className="flex items-center gap-1.5">
          <span
            aria-hidden
            className="inline-block h-2.5 w-2.5 rounded-full"
            style={{ backgroundColor: QUADRANT_COLORS[k] }}
          />
          {QUADRANT_LABELS[k]}
        </li>
      ))}
    </ul>
  );
}

/** A point's resource in its unit, marked partial where only some attempts reported it (a lower bound). */
function ResourceCell({ p, metric }: { p: PlacedPoint; metric: QuadrantMetric }) {
  return (
    <>
      {metric === 'cost'
        ? `$${p.x.toPrecision(3)}`
        : metric === 'api'
          ? `${p.x.toFixed(1)} s`
          : Math.round(p.x).toLocaleString('en-US')}
      {p.partial ? (
        <span className="text-amber-700" title="Known for only some attempts: a lower bound">
          {' '}
          partial
        </span>
      ) : null}
      <div className="text-xs text-slate-500">over {p.completeTrials} complete trial round(s)</div>
    </>
  );
}

/** The list's columns: the chart's mark, the target, its group, its resource and its mean success. */
function listColumns(xLabel: string, metric: QuadrantMetric, filters: DashboardFilters): Column<PlacedPoint>[] {
  return [
    {
      header: '#',
      title: 'The mark next to the point in the chart',
      className: 'tabular-nums font-semibold',
      cell: (_, i) => i + 1,
    },
    {
      header: 'Target',
      cell: (p) => <TargetName modelId={p.modelId} outputMode={p.outputMode} legacy={p.legacy} filters={filters} />,
    },
    { header: 'Group', cell: (p) => QUADRANT_LABELS[p.quadrant as Quadrant] },
    { header: xLabel, className: 'tabular-nums', cell: (p) => <ResourceCell p={p} metric={metric} /> },
    {
      header: 'Mean success',
      className: 'tabular-nums',
      cell: (p) => `${pct(p.y)} (${fraction({ numerator: p.passes, denominator: p.valid })})`,
    },
  ];
}

/** The chart of the placed targets, its colour key, and the same points as a numbered list. */
export function PlacedTargets({
  q,
  metric,
  xLabel,
  xScale,
  logRefused,
  filters,
}: {
  q: QuadrantReport;
  metric: QuadrantMetric;
  xLabel: string;
  xScale: 'linear' | 'log';
  /** The reader asked for a log scale that a value of 0 rules out. */
  logRefused: boolean;
  filters: DashboardFilters;
}) {
  const points = chartPoints(q);
  return (
    <>
      <QuadrantChart
        points={points}
        medianX={q.medianX!}
        medianY={q.medianY!}
        xLabel={xLabel}
        xScale={xScale}
        logAxis={xScale === 'log' ? logAxisTicks(points.map((p) => p.x)) : null}
      />
      {logRefused ? (
        <p className="text-sm text-amber-800">A log scale cannot place a value of 0, so the x axis is linear.</p>
      ) : null}
      <ColourKey />
      <DataTable
        rows={q.placed}
        rowKey={(p) => p.label}
        testId="quadrant-list"
        columns={listColumns(xLabel, metric, filters)}
      />
    </>
  );
}
