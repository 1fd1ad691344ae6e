import { notFound } from 'next/navigation';
import { agentTargetStats } from '@gitbench/db';
import { AgentStatsTable } from '@/components/agent-stats-table';
import { EmptyState, Section } from '@/components/empty-state';
import { LeaderboardTable } from '@/components/leaderboard-table';
import { ModelFixtures } from '@/components/model/model-fixtures';
import { ModelHeader } from '@/components/model/model-header';
import { ModelIndex } from '@/components/model/model-index';
import { ModelOverTime } from '@/components/model/model-over-time';
import { ModelSlices } from '@/components/model/slice-table';
import { filterOptions, listCampaigns } from '@/lib/queries/campaigns';
import { parseFilters } from '@/lib/queries/filters';
import { getModelReport, listModels } from '@/lib/queries/model';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export default async function ModelPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage('viewer');
  const sp = await searchParams;
  const id = typeof sp.id === 'string' ? sp.id : undefined;
  const { db } = services();
  if (!id) return <ModelIndex models={await listModels(db)} />;
  const filters = parseFilters(sp);
  const fixtureCampaign = typeof sp.fixtures === 'string' ? sp.fixtures : undefined;
  const [report, agentTargets] = await Promise.all([
    getModelReport(db, id, filters, fixtureCampaign),
    agentTargetStats(db, { modelId: id, perCampaign: true, includeLegacy: filters.legacy === '1' }),
  ]);
  if (!report) notFound();
  const options = await filterOptions(db, await listCampaigns(db));
  // The campaign choice offers only the campaigns that ran this model.
  options.campaigns = report.campaignsWithModel;

  return (
    <div className="space-y-8">
      <ModelHeader report={report} filters={filters} options={options} />

      <Section title="Text vs json_schema" id="targets">
        <LeaderboardTable
          rows={report.targets}
          showRank={false}
          filters={filters}
          testId="model-targets"
          empty={
            <EmptyState title="No included campaign ran this model">
              Its campaigns may be legacy, incomplete or still running; tick the toggles above to include them.
            </EmptyState>
          }
        />
      </Section>
      {agentTargets.length > 0 ? (
        <Section title="As an agent" id="agent">
          <AgentStatsTable
            rows={agentTargets}
            campaignNames={Object.fromEntries(report.campaignsWithModel.map((c) => [c.id, c.name]))}
            testId="model-agent-stats"
          />
        </Section>
      ) : null}
      <ModelSlices report={report} />

      <ModelOverTime overTime={report.overTime} />

      <ModelFixtures report={report} />
    </div>
  );
}
