import { DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';

import { LocalTime } from '@/components/local-time';
import { SuiteLink } from '@/components/suite-link';
import { requirePage } from '@/lib/auth/guard';
import { listSuites } from '@/lib/queries/item-analysis';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export default async function SuitesPage() {
  await requirePage('viewer');
  const suites = await listSuites(services().db);
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold">Suites</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          The suites campaigns have run. Each suite&apos;s page measures its fixtures over every target that ran them:
          pass rate, how well each separates strong targets from weak ones, and which are saturated, unsolved or flaky.
        </p>
      </div>
      <DataTable
        rows={suites}
        rowKey={(s) => s.suite}
        testId="suites"
        empty={<EmptyState title="No campaign has run yet">Suites appear here once a campaign runs one.</EmptyState>}
        columns={[
          {
            header: 'Suite',
            cell: (s) => <SuiteLink suite={s.suite} />,
          },
          { header: 'Campaigns', className: 'tabular-nums', cell: (s) => s.campaigns },
          { header: 'Last run', cell: (s) => <LocalTime at={s.lastRunAt} /> },
        ]}
      />
    </div>
  );
}
