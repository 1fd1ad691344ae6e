import Link from 'next/link';
import { AttemptLinks } from '@/components/attempt-links';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState, NotApplicableNote, Section } from '@/components/empty-state';
import { fixtureHref, fraction } from '@/components/format';
import { SelectForm } from '@/components/select-form';
import { SeriesClassBadge } from '@/components/status-badge';
import type { ModelReport } from '@/lib/queries/model';

type FixtureRow = ModelReport['fixtures']['rows'][number];

/** One row per fixture series of the model in the chosen campaign; the links keep that campaign. */
function fixtureColumns(campaignId: string | undefined): Column<FixtureRow>[] {
  return [
    {
      header: 'Fixture',
      sort: (r) => `${r.summary.series.domain}/${r.summary.series.fixtureId}`,
      cell: (r) => (
        <>
          <Link
            className="text-indigo-700 hover:underline"
            href={fixtureHref(r.summary.series.domain, r.summary.series.fixtureId, campaignId)}
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
          <SeriesClassBadge cls={r.summary.classification.class} plannedTrials={r.summary.series.plannedTrials} />
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
  ];
}

/** The model's fixtures in one campaign (the reader picks which), each with its attempts by trial. */
export function ModelFixtures({ report }: { report: ModelReport }) {
  const fixtures = report.fixtures;
  return (
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
          hidden={{ id: report.modelId }}
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
        columns={fixtureColumns(fixtures.campaign?.id)}
      />
    </Section>
  );
}
