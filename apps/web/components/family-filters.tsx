import type { CampaignListItem } from '@/lib/queries/campaigns';
import type { DashboardFilters } from '@/lib/queries/filters';
import { LabelledSelect } from './labelled-select';

/** The family pages' selection: one campaign, or every included one; incomplete campaigns on request. Plain GET. */
export function FamilyFilters({
  action,
  filters,
  campaigns,
}: {
  action: string;
  filters: DashboardFilters;
  campaigns: CampaignListItem[];
}) {
  return (
    <form
      method="get"
      action={action}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
      aria-label="Filters"
    >
      <LabelledSelect
        name="campaign"
        label="Campaign"
        value={filters.campaign ?? ''}
        options={[{ value: '', label: 'All included' }, ...campaigns.map((c) => ({ value: c.id, label: c.name }))]}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" name="incomplete" value="1" defaultChecked={filters.incomplete === '1'} />
        Include incomplete campaigns
      </label>
      <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-sm text-white hover:bg-slate-700">
        Apply
      </button>
    </form>
  );
}
