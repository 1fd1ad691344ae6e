import Link from 'next/link';
import { notFound } from 'next/navigation';
import { isSimulatedModelId } from '@gitbench/core';
import { AttemptLinks } from '@/components/attempt-links';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState, NotApplicableNote, Section } from '@/components/empty-state';
import { FiltersBar } from '@/components/filters-bar';
import { DASH, fixtureHref, fraction } from '@/components/format';
import { LocalTime } from '@/components/local-time';
import { LeaderboardTable } from '@/components/leaderboard-table';
import { OverTimeChart } from '@/components/over-time-chart';
import { RateCell } from '@/components/rate-cell';
import { SelectForm } from '@/components/select-form';
import { LegacyBadge, SeriesClassBadge, SimulatedBadge } from '@/components/status-badge';
import { SuiteNote } from '@/components/suite-note';
import { AgentName, modeWithAgent, TargetName } from '@/components/target-name';
import { AgentStatsTable } from '@/components/agent-stats-table';
import { agentTargetStats } from '@gitbench/db';
import { filterOptions, listCampaigns } from '@/lib/queries/campaigns';
import { parseFilters } from '@/lib/queries/filters';
import { getModelReport, listModels } from '@/lib/queries/model';
import type { SliceCell } from '@/lib/queries/model';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

function SliceTable({ title, cells, testId }: { title: string; cells: SliceCell[]; testId: string }) {
  const keys = [...new Set(cells.map((c) => c.key))];
  // One column per output mode, and in agent mode per agent: two agents on this model stay apart.
  const label = (c: SliceCell) => modeWithAgent(c.outputMode, c.agent);
  const modes = [...new Set(cells.map(label))].sort();
  return (
    <DataTable
      rows={keys}
      rowKey={(k) => k}
      testId={testId}
      columns={[
        { header: title, className: 'font-medium', sort: (k) => k, cell: (k) => k },
        ...modes.map((m): Column<string> => ({
          header: m,
          sort: (k) => cells.find((x) => x.key === k && label(x) === m)?.rate.value ?? null,
          cell: (k) => {
            const c = cells.find((x) => x.key === k && label(x) === m);
            if (!c) return <span title="No attempt in this slice">{DASH}</span>;
            return (
              <>
                <RateCell rate={c.rate} />
                {c.classified > 0 ? (
                  <div
                    className={`text-xs ${c.flaky > 0 ? 'text-amber-700' : 'text-slate-500'}`}
                    title="Flaky fixture series of all series in this slice"
                  >
                    {c.flaky}/{c.classified} flaky
                  </div>
                ) : null}
              </>
            );
          },
        })),
      ]}
    />
  );
}

function ModelIndex({ models }: { models: Awaited<ReturnType<typeof listModels>> }) {
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
  options.campaigns = report.campaignsWithModel;
  const fixtures = report.fixtures;

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm text-slate-500">
          <Link className="hover:underline" href="/models">
            Models
          </Link>
        </p>
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
          {report.modelId} {isSimulatedModelId(report.modelId) ? <SimulatedBadge /> : null}
        </h1>
        {isSimulatedModelId(report.modelId) ? (
          <p className="rounded border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
            Simulated: a seeded coin answers each fixture with a probability set by its difficulty. These results show
            how the dashboard reports flaky fixtures and pass_any_at_n; they say nothing about any model.
          </p>
        ) : null}
        <FiltersBar action="/models" filters={filters} options={options} hidden={{ id }} oneSuite />
        <SuiteNote suite={report.suite} what="Its targets, by domain and by difficulty are" />
        <p className="text-sm text-slate-600">
          {report.included.length} of {report.campaignsWithModel.length} campaign(s) with this model included under
          these filters.
        </p>
      </div>

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
      {report.byDomain.length > 0 ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Section title="By domain" id="by-domain">
            <SliceTable title="Domain" cells={report.byDomain} testId="model-by-domain" />
          </Section>
          <Section title="By difficulty" id="by-difficulty">
            <SliceTable title="Difficulty" cells={report.byDifficulty} testId="model-by-difficulty" />
          </Section>
        </div>
      ) : null}

      <Section title="Across campaigns over time" id="over-time">
        <OverTimeChart
          points={report.overTime.map((r) => ({
            campaign: r.name,
            at: r.createdAt.toISOString(),
            outputMode: modeWithAgent(r.outputMode, r.agent),
            value: r.rate.value,
            low: r.rate.interval?.low ?? null,
            high: r.rate.interval?.high ?? null,
            fraction: fraction(r.rate),
          }))}
        />
        <DataTable
          rows={report.overTime}
          rowKey={(r) => `${r.campaignId}|${r.outputMode}|${r.agent ?? ''}`}
          testId="model-over-time"
          columns={[
            {
              header: 'Campaign',
              cell: (r) => (
                <>
                  <Link className="text-indigo-700 hover:underline" href={`/campaigns/${r.campaignId}`}>
                    {r.name}
                  </Link>{' '}
                  {r.legacy ? (
                    <LegacyBadge />
                  ) : r.complete ? null : (
                    <span className="text-xs text-amber-700">incomplete</span>
                  )}
                </>
              ),
            },
            { header: 'Suite version', className: 'font-mono text-xs', cell: (r) => r.suiteVersion },
            { header: 'Date', className: 'text-xs', cell: (r) => <LocalTime at={r.createdAt} /> },
            { header: 'Mode', cell: (r) => r.outputMode },
            { header: 'Agent', cell: (r) => <AgentName agent={r.agent} outputMode={r.outputMode} /> },
            { header: 'Mean success', cell: (r) => <RateCell rate={r.rate} /> },
          ]}
        />
      </Section>

      <Section
        title={`Fixtures${fixtures.campaign ? ` in ${fixtures.campaign.name}` : ''}`}
        id="fixtures"
        aside={
          <SelectForm
            formLabel="Choose the campaign for the fixture list"
            action="/models"
            label="Campaign"
            name="fixtures"
            value={fixtures.campaign?.id ?? ''}
            hidden={{ id }}
            options={report.campaignsWithModel.map((c) => ({ value: c.id, label: c.name }))}
          />
        }
      >
        <DataTable
          rows={fixtures.rows}
          rowKey={(r) => `${r.summary.series.domain}/${r.summary.series.fixtureId}/${r.outputMode}`}
          testId="model-fixtures"
          searchLabel="fixtures"
          search
          dense
          empty={<EmptyState title="No attempts of this model in this campaign yet" />}
          columns={[
            {
              header: 'Fixture',
              sort: (r) => `${r.summary.series.domain}/${r.summary.series.fixtureId}`,
              cell: (r) => (
                <>
                  <Link
                    className="text-indigo-700 hover:underline"
                    href={fixtureHref(r.summary.series.domain, r.summary.series.fixtureId, fixtures.campaign?.id)}
                  >
                    {r.summary.series.domain}/{r.summary.series.fixtureId}
                  </Link>{' '}
                  <span className="text-xs text-slate-500">{r.summary.series.difficulty}</span>
                </>
              ),
            },
            { header: 'Mode', className: 'text-xs', sort: (r) => r.outputMode, cell: (r) => r.outputMode },
            {
              header: 'Classification',
              sort: (r) => (r.summary.classification.applicable ? r.summary.classification.class : null),
              cell: (r) =>
                r.summary.classification.applicable ? (
                  <SeriesClassBadge
                    cls={r.summary.classification.class}
                    plannedTrials={r.summary.series.plannedTrials}
                  />
                ) : (
                  <NotApplicableNote />
                ),
            },
            {
              header: 'Valid passed',
              title: 'Valid attempts that passed / valid attempts',
              className: 'tabular-nums text-xs',
              sort: (r) => r.summary.meanSuccess.value,
              cell: (r) => fraction(r.summary.meanSuccess),
            },
            { header: 'Attempts by trial', cell: (r) => <AttemptLinks attempts={r.attempts} /> },
          ]}
        />
      </Section>
    </div>
  );
}
