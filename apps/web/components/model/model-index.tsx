import Link from 'next/link';
import { DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { modeWithAgent, TargetName } from '@/components/target-name';
import type { listModels } from '@/lib/queries/model';

/** The models page without a model chosen: every model that has run, with its campaigns per output mode. */
export function ModelIndex({ models }: { models: Awaited<ReturnType<typeof listModels>> }) {
  const ids = [...new Set(models.map((m) => m.modelId))];
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold">Models</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every model that has run in a campaign; open one for its results by domain, difficulty, output mode and over
          time.
        </p>
      </div>
      <DataTable
        rows={ids}
        rowKey={(m) => m}
        testId="model-list"
        searchLabel="models"
        search
        empty={
          <EmptyState title="No model has run yet">
            Launch a campaign from the{' '}
            <Link className="text-indigo-700 underline" href="/campaigns/new">
              new campaign form
            </Link>{' '}
            to see models here.
          </EmptyState>
        }
        columns={[
          { header: 'Model', sort: (m) => m, cell: (m) => <TargetName modelId={m} /> },
          {
            header: 'Campaigns by output mode',
            cell: (m) =>
              models
                .filter((x) => x.modelId === m)
                .map(
                  (x) =>
                    `${modeWithAgent(x.outputMode, x.agent)}: ${x.campaigns} campaign${x.campaigns === 1 ? '' : 's'}`,
                )
                .join(' · '),
          },
        ]}
      />
    </div>
  );
}
