import { notFound } from 'next/navigation';
import { campaignReleased } from '@gitbench/core';
import { agentTargetStats, refreshStaleCampaignStats } from '@gitbench/db';
import { AgentStatsTable } from '@/components/agent-stats-table';
import { CampaignCompleteness } from '@/components/campaign/campaign-completeness';
import { CampaignFixtures, SignInForFixtures } from '@/components/campaign/campaign-fixtures';
import { CampaignHeader } from '@/components/campaign/campaign-header';
import { CampaignHeatmap } from '@/components/campaign/campaign-heatmap';
import { CampaignPerModel } from '@/components/campaign/campaign-per-model';
import { CampaignLive } from '@/components/campaign-live';
import { Section } from '@/components/empty-state';
import { getCampaignFixtureTable, getCampaignOverview } from '@/lib/queries/campaign';
import { services } from '@/lib/services';
import { requirePublicPage, sendToSignIn } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

// While a campaign runs its stats go stale with every attempt; refresh them at most this often.
const RUNNING_STATS_MIN_AGE_MS = 3_000;

export default async function CampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  // Null: an anonymous visitor of the public leaderboard, who sees a published campaign's aggregates
  // and nothing that leads to its attempts, exports or review.
  const actor = await requirePublicPage();
  const { id } = await params;
  const sp = await searchParams;
  const page = Math.max(1, Number(sp.page) || 1);
  const domain = sp.domain || undefined;
  const { db } = services();
  // The maintained stats are a cache of the attempts: bring them up to date before reading them, so a
  // running, just-finished or cancelled campaign shows its current figures.
  await refreshStaleCampaignStats(db, { campaignId: id, minAgeMs: RUNNING_STATS_MIN_AGE_MS });
  const [o, table, agentTargets] = await Promise.all([
    getCampaignOverview(db, id),
    getCampaignFixtureTable(db, id, { page, domain }),
    agentTargetStats(db, { campaignId: id, includeLegacy: true }),
  ]);
  if (!actor && (!o || !campaignReleased(o.campaign))) return sendToSignIn();
  if (!o || !table) notFound();
  const c = o.campaign;
  const total = Object.values(o.statusCounts).reduce((a, b) => a + (b ?? 0), 0);

  return (
    <div className="space-y-8">
      <CampaignHeader o={o} actor={actor} />

      {actor ? (
        <CampaignLive
          campaignId={id}
          legacy={c.legacy}
          initial={{ status: c.status, total, done: o.done, byStatus: o.statusCounts as Record<string, number> }}
          initialEtaSeconds={o.etaMs === null ? null : o.etaMs / 1000}
        />
      ) : null}

      <CampaignCompleteness o={o} actor={actor} />

      <CampaignPerModel o={o} linkModels={actor !== null} />

      {agentTargets.length > 0 ? (
        <Section title="Agents" id="agents">
          <AgentStatsTable rows={agentTargets} linkModels={actor !== null} />
        </Section>
      ) : null}

      <CampaignHeatmap o={o} />

      {actor ? <CampaignFixtures o={o} table={table} domain={domain} /> : <SignInForFixtures campaignId={id} />}
    </div>
  );
}
