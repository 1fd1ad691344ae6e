import { isSimulatedModelId } from '@gitbench/core';
import { modeWithAgent } from '@/components/target-name';
import type { DashboardFilters } from '@/lib/queries/filters';
import type { listModels } from '@/lib/queries/model';
import { sideValue } from './compare-side';

type Targets = Awaited<ReturnType<typeof listModels>>;

/** One side's choice among every target that has run; `chosen` is the URL's value as given, parsed or not. */
function TargetPicker({
  name,
  label,
  chosen,
  targets,
}: {
  name: 'a' | 'b';
  label: string;
  chosen: string;
  targets: Targets;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
      {label}
      <select
        name={name}
        defaultValue={chosen}
        className="max-w-sm rounded border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
        required
      >
        <option value="">Choose a target…</option>
        {targets.map((t) => (
          <option key={sideValue(t)} value={sideValue(t)}>
            {t.modelId} · {modeWithAgent(t.outputMode, t.agent)}
            {isSimulatedModelId(t.modelId) ? ' (simulated)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

function LeftOutToggle({ name, checked, label }: { name: string; checked: boolean; label: string }) {
  return (
    <label className="flex items-center gap-2">
      <input type="checkbox" name={name} value="1" defaultChecked={checked} className="h-4 w-4" /> {label}
    </label>
  );
}

/** Legacy and incomplete campaigns stay out of a comparison unless the reader ticks them in. */
function LeftOutToggles({ filters }: { filters: DashboardFilters }) {
  return (
    <fieldset className="flex flex-col gap-1 text-sm">
      <legend className="sr-only">Campaigns left out by default</legend>
      <LeftOutToggle name="legacy" checked={filters.legacy === '1'} label="Include legacy" />
      <LeftOutToggle name="incomplete" checked={filters.incomplete === '1'} label="Include incomplete" />
    </fieldset>
  );
}

/** The two sides and the campaigns to include, sent as a GET so a comparison is a link. */
export function CompareForm({
  targets,
  chosen,
  filters,
}: {
  targets: Targets;
  chosen: { a: string; b: string };
  filters: DashboardFilters;
}) {
  return (
    <form
      method="get"
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
      aria-label="Targets to compare"
    >
      <TargetPicker name="a" label="First (A)" chosen={chosen.a} targets={targets} />
      <TargetPicker name="b" label="Second (B)" chosen={chosen.b} targets={targets} />
      <LeftOutToggles filters={filters} />
      <button
        type="submit"
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
      >
        Compare
      </button>
    </form>
  );
}
