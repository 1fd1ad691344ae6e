import { campaignReleased } from '@gitbench/core';
import { AgentStatsTable } from '@/components/agent-stats-table';
import { Section } from '@/components/empty-state';
import { FiltersBar } from '@/components/filters-bar';
import { FamilyBoards, HumanBaselines } from '@/components/leaderboard/beside-the-ranking';
import { InclusionNote, LeaderboardIntro } from '@/components/leaderboard/leaderboard-intro';
import { NothingToRank } from '@/components/leaderboard/nothing-to-rank';
import { Rankings } from '@/components/leaderboard/rankings';
import { services } from '@/lib/services';
import { filterOptions, listCampaigns } from '@/lib/queries/campaigns';
import { parseFilters } from '@/lib/queries/filters';
import { getFamilyBoards } from '@/lib/queries/families';
import { getLeaderboard, getLeaderboardAgents } from '@/lib/queries/leaderboard';
import { requirePublicPage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export default async function LeaderboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Null: an anonymous visitor of the public leaderboard, who sees published campaigns' aggregates only.
  const actor = await requirePublicPage();
  const filters = parseFilters(await searchParams);
  const { db } = services();
  const everyCampaign = await listCampaigns(db);
  const campaigns = actor ? everyCampaign : everyCampaign.filter(campaignReleased);
  const [board, options, families, agentTargets] = await Promise.all([
    getLeaderboard(db, filters, campaigns),
    filterOptions(db, campaigns),
    // The family tables link to pages only signed-in readers may open.
    actor ? getFamilyBoards(db, filters, campaigns) : [],
    getLeaderboardAgents(db, filters, campaigns),
  ]);
  const { legacy, incomplete } = board.leftOut;
  const signedIn = actor !== null;
  return (
    <div className="space-y-5">
      <LeaderboardIntro signedIn={signedIn} filters={filters} />
      <FiltersBar action="/" filters={filters} options={options} rankSuitesApart />
      <InclusionNote board={board} />
      {board.rows.length === 0 ? (
        <NothingToRank campaigns={campaigns.length} signedIn={signedIn} leftOut={legacy + incomplete} />
      ) : (
        <Rankings board={board} filters={filters} linkModels={signedIn} />
      )}
      <HumanBaselines board={board} filters={filters} linkModels={signedIn} />
      <FamilyBoards families={families.filter((f) => f.rows.length > 0)} filters={filters} />
      {agentTargets.length > 0 ? (
        <Section title="Agents" id="agents">
          <AgentStatsTable rows={agentTargets} testId="leaderboard-agent-stats" linkModels={signedIn} />
        </Section>
      ) : null}
    </div>
  );
}
