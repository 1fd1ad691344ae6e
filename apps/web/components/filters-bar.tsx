import type { ReactNode } from 'react';
import type { FilterOptions } from '@/lib/queries/campaigns';
import { ALL_SUITES, type DashboardFilters } from '@/lib/queries/filters';
import { LabelledSelect } from './labelled-select';

/** Plain GET form: works without JavaScript, every control labelled, Enter submits. */
export function FiltersBar({
  action,
  filters,
  options,
  hidden = {},
  showToggles = true,
  rankSuitesApart = false,
  oneSuite = false,
  children,
}: {
  action: string;
  filters: DashboardFilters;
  options: FilterOptions;
  hidden?: Record<string, string>;
  showToggles?: boolean;
  /** The leaderboard ranks each suite version apart unless asked to pool them: its suite choice says so. */
  rankSuitesApart?: boolean;
  /** A view of one figure per target (quadrant, model page) is over one suite, the newest unless chosen. */
  oneSuite?: boolean;
  /** Further controls of the same form (e.g. the quadrant's x axis), placed before the toggles. */
  children?: ReactNode;
}) {
  const select = (
    name: keyof DashboardFilters,
    label: string,
    values: { value: string; label: string }[],
    first = [{ value: '', label: 'All' }],
  ) => (
    <LabelledSelect
      name={name}
      label={label}
      value={(filters[name] as string | undefined) ?? ''}
      options={[...first, ...values]}
    />
  );
  return (
    // Keyed by the filters: a link that changes them (client-side navigation) remounts the controls, whose
    // defaultValue would otherwise keep showing the previous choice.
    <form
      key={JSON.stringify(filters)}
      method="get"
      action={action}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
      aria-label="Filters"
    >
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {select(
        'campaign',
        'Campaign',
        options.campaigns.map((c) => ({
          value: c.id,
          label: `${c.name}${c.legacy ? ' (legacy)' : c.complete ? '' : ' (incomplete)'}`,
        })),
      )}
      {select(
        'suite',
        'Suite version',
        options.suites.map((s) => ({ value: s, label: s })),
        rankSuitesApart
          ? [
              { value: '', label: 'Each ranked apart' },
              { value: ALL_SUITES, label: 'All pooled' },
            ]
          : oneSuite
            ? [
                { value: '', label: 'Newest current' },
                { value: ALL_SUITES, label: 'All pooled' },
              ]
            : undefined,
      )}
      {select(
        'domain',
        'Domain',
        options.domains.map((s) => ({ value: s, label: s })),
      )}
      {select(
        'difficulty',
        'Difficulty',
        options.difficulties.map((s) => ({ value: s, label: s })),
      )}
      {select('mode', 'Output mode', [
        { value: 'text', label: 'text' },
        { value: 'json_schema', label: 'json_schema' },
        { value: 'agent', label: 'agent' },
      ])}
      {children}
      {showToggles ? (
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="sr-only">Campaigns left out by default</legend>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="legacy"
              value="1"
              defaultChecked={filters.legacy === '1'}
              className="h-4 w-4"
            />
            Include legacy campaigns
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="incomplete"
              value="1"
              defaultChecked={filters.incomplete === '1'}
              className="h-4 w-4"
            />
            Include incomplete campaigns
          </label>
        </fieldset>
      ) : null}
      <button
        type="submit"
        className={
          'rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white ' +
          'hover:bg-indigo-700 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-500'
        }
      >
        Apply
      </button>
    </form>
  );
}
