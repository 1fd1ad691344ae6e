import Link from 'next/link';
import { DataTable } from '@/components/data-table';
import { Section } from '@/components/empty-state';
import { fraction } from '@/components/format';
import { LocalTime } from '@/components/local-time';
import { OverTimeChart } from '@/components/over-time-chart';
import { RateCell } from '@/components/rate-cell';
import { LegacyBadge } from '@/components/status-badge';
import { AgentName, modeWithAgent } from '@/components/target-name';
import type { ModelReport } from '@/lib/queries/model';

type CampaignRate = ModelReport['overTime'][number];

/** The campaign linked, marked legacy or incomplete: both are left out of rankings by default. */
function CampaignCell({ r }: { r: CampaignRate }) {
  return (
    <>
      <Link className="text-indigo-700 hover:underline" href={`/campaigns/${r.campaignId}`}>
        {r.name}
      </Link>{' '}
      {r.legacy ? <LegacyBadge /> : r.complete ? null : <span className="text-xs text-amber-700">incomplete</span>}
    </>
  );
}

/** Mean success in every campaign that ran the model, oldest first: as a chart, then as a table. */
export function ModelOverTime({ overTime }: { overTime: ModelReport['overTime'] }) {
  return (
    <Section title="Across campaigns over time" id="over-time">
      <OverTimeChart
        points={overTime.map((r) => ({
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
        rows={overTime}
        rowKey={(r) => `${r.campaignId}|${r.outputMode}|${r.agent ?? ''}`}
        testId="model-over-time"
        columns={[
          { header: 'Campaign', cell: (r) => <CampaignCell r={r} /> },
          { header: 'Suite version', className: 'font-mono text-xs', cell: (r) => r.suiteVersion },
          { header: 'Date', className: 'text-xs', cell: (r) => <LocalTime at={r.createdAt} /> },
          { header: 'Mode', cell: (r) => r.outputMode },
          { header: 'Agent', cell: (r) => <AgentName agent={r.agent} outputMode={r.outputMode} /> },
          { header: 'Mean success', cell: (r) => <RateCell rate={r.rate} /> },
        ]}
      />
    </Section>
  );
}
