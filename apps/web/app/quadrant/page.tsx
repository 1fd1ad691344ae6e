import Link from 'next/link';
import {
  AXIS_SCALES,
  LOG_SCALE_SPAN,
  QUADRANT_LABELS,
  QUADRANTS,
  logAxisTicks,
  xScaleOf,
  type AxisScale,
  type Quadrant,
} from '@gitbench/core';
import { DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { FiltersBar } from '@/components/filters-bar';
import { LabelledSelect } from '@/components/labelled-select';
import { fraction, pct } from '@/components/format';
import { QuadrantChart } from '@/components/quadrant-chart';
import { SuiteNote } from '@/components/suite-note';
import { QUADRANT_COLORS } from '@/components/quadrant-colors';
import { TargetName } from '@/components/target-name';
import { filterOptions, listCampaigns } from '@/lib/queries/campaigns';
import { filtersQuery, parseFilters } from '@/lib/queries/filters';
import { getQuadrant, isQuadrantMetric, QUADRANT_METRICS, type QuadrantMetric } from '@/lib/queries/quadrant';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export default async function QuadrantPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage('viewer');
  const sp = await searchParams;
  const filters = parseFilters(sp);
  const metric: QuadrantMetric = isQuadrantMetric(sp.x) ? sp.x : 'cost';
  const { db } = services();
  const [q, options] = await Promise.all([
    getQuadrant(db, filters, metric),
    listCampaigns(db).then((c) => filterOptions(db, c)),
  ]);
  const { label: xLabel, noun } = QUADRANT_METRICS[metric];
  const requestedScale: AxisScale = (AXIS_SCALES as readonly string[]).includes(String(sp.scale))
    ? (sp.scale as AxisScale)
    : 'auto';
  const { scale: xScale, logImpossible } = xScaleOf(
    q.placed.map((p) => p.x),
    requestedScale,
  );
  const alternatives = (Object.keys(QUADRANT_METRICS) as QuadrantMetric[]).filter(
    (m) => m !== metric && q.placeable[m] > 0,
  );
  const points = q.placed.map((p, i) => ({
    x: p.x,
    y: p.y,
    label: p.label,
    mark: String(i + 1),
    quadrant: p.quadrant,
    passes: p.passes,
    valid: p.valid,
    err: [p.y - (p.low ?? p.y), (p.high ?? p.y) - p.y] as [number, number],
  }));
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold">Cost vs quality</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          One point per target: across, a resource per complete trial round (choose which); up, mean one-attempt success
          with its Wilson 95% interval. The dashed medians split the targets into four groups; a point on a median
          counts as cheaper and better.
        </p>
        <SuiteNote suite={q.suite} />
      </div>
      <FiltersBar action="/quadrant" filters={filters} options={options} oneSuite>
        <LabelledSelect
          name="x"
          label="x axis"
          value={metric}
          options={Object.entries(QUADRANT_METRICS).map(([value, m]) => ({ value, label: m.label }))}
        />
        <LabelledSelect
          name="scale"
          label="x scale"
          value={requestedScale}
          options={[
            { value: 'auto', label: `Auto (log from a ${LOG_SCALE_SPAN}× spread)` },
            { value: 'linear', label: 'Linear' },
            { value: 'log', label: 'Log' },
          ]}
        />
      </FiltersBar>
      {q.placed.length === 0 ? (
        <EmptyState title="No point can be placed">
          {q.unplaced.length > 0 ? (
            <>
              {q.unplaced.length} target(s) have no known {noun} per complete trial (or no valid attempt), so they
              cannot be placed: an unknown value is never drawn as 0.
              {alternatives.length > 0 ? (
                <>
                  {' '}
                  Try{' '}
                  {alternatives.map((m, i) => (
                    <span key={m}>
                      {i > 0 ? ' or ' : ''}
                      <Link className="text-indigo-700 underline" href={`/quadrant${filtersQuery(filters, { x: m })}`}>
                        {QUADRANT_METRICS[m].label.toLowerCase()}
                      </Link>
                    </span>
                  ))}
                  .
                </>
              ) : null}
            </>
          ) : (
            'No included campaign has results. Include legacy or incomplete ' +
            'campaigns with the toggles above, or launch a campaign.'
          )}
        </EmptyState>
      ) : (
        <>
          <QuadrantChart
            points={points}
            medianX={q.medianX!}
            medianY={q.medianY!}
            xLabel={xLabel}
            xScale={xScale}
            logAxis={xScale === 'log' ? logAxisTicks(points.map((p) => p.x)) : null}
          />
          {logImpossible && requestedScale === 'log' ? (
            <p className="text-sm text-amber-800">A log scale cannot place a value of 0, so the x axis is linear.</p>
          ) : null}
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
          <DataTable
            rows={q.placed}
            rowKey={(p) => p.label}
            testId="quadrant-list"
            columns={[
              {
                header: '#',
                title: 'The mark next to the point in the chart',
                className: 'tabular-nums font-semibold',
                cell: (_, i) => i + 1,
              },
              {
                header: 'Target',
                cell: (p) => (
                  <TargetName modelId={p.modelId} outputMode={p.outputMode} legacy={p.legacy} filters={filters} />
                ),
              },
              { header: 'Group', cell: (p) => QUADRANT_LABELS[p.quadrant as Quadrant] },
              {
                header: xLabel,
                className: 'tabular-nums',
                cell: (p) => (
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
                ),
              },
              {
                header: 'Mean success',
                className: 'tabular-nums',
                cell: (p) => `${pct(p.y)} (${fraction({ numerator: p.passes, denominator: p.valid })})`,
              },
            ]}
          />
        </>
      )}
      {q.unplaced.length > 0 && q.placed.length > 0 ? (
        <p className="text-sm text-slate-600">
          Not placed (no known {noun} per complete trial, or no valid attempt):{' '}
          {q.unplaced.map((p) => p.label).join(', ')}.
        </p>
      ) : null}
    </div>
  );
}
