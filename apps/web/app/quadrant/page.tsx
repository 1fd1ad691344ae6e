import { xScaleOf } from '@gitbench/core';
import { FiltersBar } from '@/components/filters-bar';
import { AxisControls, requestedScaleOf } from '@/components/quadrant/axis-controls';
import { NoPointPlaced } from '@/components/quadrant/no-point-placed';
import { PlacedTargets } from '@/components/quadrant/placed-targets';
import { SuiteNote } from '@/components/suite-note';
import { filterOptions, listCampaigns } from '@/lib/queries/campaigns';
import { parseFilters } from '@/lib/queries/filters';
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
  const requestedScale = requestedScaleOf(sp.scale);
  const { scale: xScale, logImpossible } = xScaleOf(
    q.placed.map((p) => p.x),
    requestedScale,
  );
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
        <AxisControls metric={metric} requestedScale={requestedScale} />
      </FiltersBar>
      {q.placed.length === 0 ? (
        <NoPointPlaced q={q} metric={metric} filters={filters} />
      ) : (
        <PlacedTargets
          q={q}
          metric={metric}
          xLabel={xLabel}
          xScale={xScale}
          logRefused={logImpossible && requestedScale === 'log'}
          filters={filters}
        />
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
