import Link from 'next/link';
import { isSimulatedModelId, wallClockMs } from '@gitbench/core';
import { DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { duration, int } from '@/components/format';
import { LocalTime } from '@/components/local-time';
import { LegacyBadge, SimulatedBadge, StatusBadge } from '@/components/status-badge';
import { campaignModels, listCampaigns } from '@/lib/queries/campaigns';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export default async function CampaignsPage() {
  await requirePage('viewer');
  const { db } = services();
  const campaigns = await listCampaigns(db, { limit: 200 });
  const models = await campaignModels(
    db,
    campaigns.map((c) => c.id),
  );
  return (
    <div className="space-y-5">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Campaigns</h1>
          <p className="mt-1 text-sm text-slate-600">
            Newest first. A campaign is complete when every planned attempt has a valid outcome.
          </p>
        </div>
        <Link
          href="/campaigns/new"
          className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
        >
          New campaign
        </Link>
      </div>
      <DataTable
        rows={campaigns}
        rowKey={(c) => c.id}
        testId="campaign-list"
        searchLabel="campaigns"
        search={(c) => `${c.id} ${(models.get(c.id) ?? []).join(' ')}`}
        empty={
          <EmptyState title="No campaigns yet">
            Start one with the{' '}
            <Link className="text-indigo-700 underline" href="/campaigns/new">
              new campaign form
            </Link>
            , or run <code>npm run demo</code>, which launches a small demo campaign.
          </EmptyState>
        }
        columns={[
          {
            header: 'Name',
            sort: (c) => c.name,
            cell: (c) => (
              <>
                <Link href={`/campaigns/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                  {c.name}
                </Link>{' '}
                {c.legacy ? <LegacyBadge /> : null}
                <div className="mt-0.5 flex flex-wrap items-center gap-1 text-xs text-slate-500">
                  {(models.get(c.id) ?? []).join(', ')}
                  {(models.get(c.id) ?? []).some(isSimulatedModelId) ? <SimulatedBadge /> : null}
                </div>
              </>
            ),
          },
          { header: 'Status', sort: (c) => c.status, cell: (c) => <StatusBadge status={c.status} /> },
          {
            header: 'Complete',
            sort: (c) => (c.complete ? 'yes' : 'no'),
            title: 'Every planned attempt has a valid outcome, nothing is unscored, and the safety review allows it',
            cell: (c) => (c.complete ? 'yes' : <span className="text-amber-700">no</span>),
          },
          { header: 'Suite', sort: (c) => c.suiteVersion, cell: (c) => c.suiteVersion },
          { header: 'Trials', sort: (c) => c.trials, className: 'tabular-nums', cell: (c) => c.trials },
          {
            header: 'Attempts',
            title: 'Planned attempts',
            sort: (c) => c.plannedAttempts,
            className: 'tabular-nums',
            cell: (c) => int(c.plannedAttempts),
          },
          {
            header: 'Wall clock',
            sort: (c) => (c.legacy ? null : wallClockMs(c)),
            title: 'From the first attempt starting to the campaign finishing (still counting while it runs)',
            className: 'tabular-nums',
            cell: (c) =>
              c.legacy ? (
                <span title="Imported results do not record how long they took">—</span>
              ) : (
                duration(wallClockMs(c))
              ),
          },
          {
            header: 'Created',
            sort: (c) => c.createdAt.getTime(),
            className: 'text-xs',
            cell: (c) => <LocalTime at={c.createdAt} />,
          },
        ]}
      />
    </div>
  );
}
