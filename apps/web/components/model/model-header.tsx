import Link from 'next/link';
import { isSimulatedModelId } from '@gitbench/core';
import { FiltersBar } from '@/components/filters-bar';
import { SimulatedBadge } from '@/components/status-badge';
import { SuiteNote } from '@/components/suite-note';
import type { FilterOptions } from '@/lib/queries/campaigns';
import type { DashboardFilters } from '@/lib/queries/filters';
import type { ModelReport } from '@/lib/queries/model';

/** The model's name, a warning when a coin plays it, the filters, and how many campaigns they let in. */
export function ModelHeader({
  report,
  filters,
  options,
}: {
  report: ModelReport;
  filters: DashboardFilters;
  options: FilterOptions;
}) {
  const simulated = isSimulatedModelId(report.modelId);
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-500">
        <Link className="hover:underline" href="/models">
          Models
        </Link>
      </p>
      <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
        {report.modelId} {simulated ? <SimulatedBadge /> : null}
      </h1>
      {simulated ? (
        <p className="rounded border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
          Simulated: a seeded coin answers each fixture with a probability set by its difficulty. These results show how
          the dashboard reports flaky fixtures and pass_any_at_n; they say nothing about any model.
        </p>
      ) : null}
      <FiltersBar action="/models" filters={filters} options={options} hidden={{ id: report.modelId }} oneSuite />
      <SuiteNote suite={report.suite} what="Its targets, by domain and by difficulty are" />
      <p className="text-sm text-slate-600">
        {report.included.length} of {report.campaignsWithModel.length} campaign(s) with this model included under these
        filters.
      </p>
    </div>
  );
}
