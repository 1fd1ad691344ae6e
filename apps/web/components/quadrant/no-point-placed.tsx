import Link from 'next/link';
import { EmptyState } from '@/components/empty-state';
import { filtersQuery, type DashboardFilters } from '@/lib/queries/filters';
import { QUADRANT_METRICS, type QuadrantMetric, type QuadrantReport } from '@/lib/queries/quadrant';

/** Links to the other resources that could place a point: an unknown value is never drawn as 0. */
function OtherMetrics({ metrics, filters }: { metrics: QuadrantMetric[]; filters: DashboardFilters }) {
  return (
    <>
      {' '}
      Try{' '}
      {metrics.map((m, i) => (
        <span key={m}>
          {i > 0 ? ' or ' : ''}
          <Link className="text-indigo-700 underline" href={`/quadrant${filtersQuery(filters, { x: m })}`}>
            {QUADRANT_METRICS[m].label.toLowerCase()}
          </Link>
        </span>
      ))}
      .
    </>
  );
}

/** An empty chart says why: the targets lack this resource (try another), or no campaign is included. */
export function NoPointPlaced({
  q,
  metric,
  filters,
}: {
  q: QuadrantReport;
  metric: QuadrantMetric;
  filters: DashboardFilters;
}) {
  const alternatives = (Object.keys(QUADRANT_METRICS) as QuadrantMetric[]).filter(
    (m) => m !== metric && q.placeable[m] > 0,
  );
  return (
    <EmptyState title="No point can be placed">
      {q.unplaced.length > 0 ? (
        <>
          {q.unplaced.length} target(s) have no known {QUADRANT_METRICS[metric].noun} per complete trial (or no valid
          attempt), so they cannot be placed: an unknown value is never drawn as 0.
          {alternatives.length > 0 ? <OtherMetrics metrics={alternatives} filters={filters} /> : null}
        </>
      ) : (
        'No included campaign has results. Include legacy or incomplete ' +
        'campaigns with the toggles above, or launch a campaign.'
      )}
    </EmptyState>
  );
}
