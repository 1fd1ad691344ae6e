import Link from 'next/link';
import { CampaignLinks } from '@/components/campaign-links';
import { EmptyState, Section } from '@/components/empty-state';
import { ExportLinks } from '@/components/export-links';
import { plural } from '@/components/format';
import { campaignReleased, FAMILY_TITLES } from '@gitbench/core';
import { FamilyBoardView } from '@/components/family-board';
import { FiltersBar } from '@/components/filters-bar';
import { LeaderboardTable, RANKING_RULE } from '@/components/leaderboard-table';
import { AgentStatsTable } from '@/components/agent-stats-table';
import { services } from '@/lib/services';
import { filterOptions, listCampaigns } from '@/lib/queries/campaigns';
import { ALL_SUITES, filtersQuery, parseFilters } from '@/lib/queries/filters';
import { getFamilyBoards } from '@/lib/queries/families';
import { getLeaderboard, getLeaderboardAgents, type Leaderboard } from '@/lib/queries/leaderboard';
import { requirePublicPage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

/** Says which campaigns the ranking rests on and which it leaves out, and why. */
function InclusionNote({ board }: { board: Leaderboard }) {
  const { legacy, incomplete, running } = board.leftOut;
  const finishedIncomplete = incomplete - running.length;
  return (
    <div className="space-y-1 text-sm text-slate-600" data-testid="inclusion-note">
      <p>
        {plural(board.included.length, 'campaign')} included.
        {finishedIncomplete > 0 ? ` ${finishedIncomplete} incomplete campaign(s) left out.` : ''}
        {legacy > 0 ? ` ${legacy} legacy campaign(s) left out.` : ''}
        {finishedIncomplete + legacy > 0 ? ' Use the toggles above to include them.' : ''}
      </p>
      {running.length > 0 ? (
        <p className="text-sky-800" data-testid="running-note">
          Still running, joins the ranking when complete: <CampaignLinks campaigns={running} />.
        </p>
      ) : null}
    </div>
  );
}

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
  const familiesWithResults = families.filter((f) => f.rows.length > 0);
  const { legacy, incomplete } = board.leftOut;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Leaderboard</h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Targets (model × effort × output mode, and in agent mode the agent that drives the model) within each suite
            version, with their mean one-attempt success: passing valid attempts ÷ valid attempts, and its Wilson 95%
            interval. They are ranked by the interval&apos;s lower bound. Every figure shows its numerator and
            denominator; follow a model to its fixtures and attempts.{' '}
            <Link href="/methodology" className="text-indigo-700 underline">
              How the numbers are made
            </Link>
            .
          </p>
        </div>
        {actor ? (
          <ExportLinks
            href={(format) => `/api/export/leaderboard${filtersQuery(filters, { format })}`}
            what="leaderboard"
          />
        ) : (
          <p className="text-sm text-slate-600" data-testid="public-note">
            Published campaigns only.{' '}
            <Link className="text-indigo-700 underline" href="/sign-in">
              Sign in
            </Link>{' '}
            for models, fixtures and attempts.
          </p>
        )}
      </div>
      <FiltersBar action="/" filters={filters} options={options} rankSuitesApart />
      <InclusionNote board={board} />
      {board.rows.length === 0 ? (
        campaigns.length === 0 && !actor ? (
          <EmptyState title="No published campaigns yet">
            Campaigns appear here once their team publishes them.
          </EmptyState>
        ) : campaigns.length === 0 ? (
          <EmptyState title="No campaigns yet">
            Launch one from the{' '}
            <Link className="text-indigo-700 underline" href="/campaigns/new">
              new campaign form
            </Link>{' '}
            (the oracle, mock and simulated models need no API key), or import upstream results with{' '}
            <code>npx gitbench import-legacy &lt;files…&gt;</code>. Check services on the{' '}
            <Link className="text-indigo-700 underline" href="/status">
              system status
            </Link>{' '}
            page.
          </EmptyState>
        ) : (
          <EmptyState title="Nothing to rank with these filters">
            {legacy + incomplete > 0
              ? 'Every matching campaign is still running, incomplete or legacy, and those are ' +
                'left out of rankings by default. Tick the toggles above to see them anyway.'
              : 'No campaign has results for this selection. Widen the filters.'}
          </EmptyState>
        )
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="ranking-rule">
            {RANKING_RULE}{' '}
            {board.pooled
              ? 'Every suite version is pooled into one row per target, as asked: rows may sum different fixture sets.'
              : 'Each suite version is ranked on its own: a row never sums campaigns of different suites.'}{' '}
            {board.pooled || board.suites.length > 1 ? (
              <Link
                className="text-indigo-700 underline"
                href={filtersQuery({ ...filters, suite: board.pooled ? undefined : ALL_SUITES })}
              >
                {board.pooled ? 'Rank each suite apart' : 'Pool every suite instead'}
              </Link>
            ) : null}
          </p>
          {board.pooled ? (
            <LeaderboardTable rows={board.rows} filters={filters} linkModels={actor !== null} />
          ) : (
            board.suites.map((suite) => (
              <section
                key={suite}
                aria-labelledby={`suite-${suite}`}
                className="space-y-2"
                data-testid="suite-ranking"
                data-suite={suite}
              >
                {board.suites.length > 1 || !filters.suite ? (
                  <h2 id={`suite-${suite}`} className="text-base font-semibold">
                    Suite version <code className="text-sm">{suite}</code>
                  </h2>
                ) : null}
                <LeaderboardTable
                  rows={board.rows.filter((r) => r.suiteVersion === suite)}
                  filters={filters}
                  linkModels={actor !== null}
                />
              </section>
            ))
          )}
          <p className="text-xs text-slate-500">
            Cost, tokens and API time are means per complete trial round (a round counts when every one of its attempts
            has a valid outcome), so campaigns with different trial counts compare fairly; the campaign totals are shown
            underneath. &ldquo;—&rdquo; means unknown, never zero.
            {board.rows.some((r) => r.simulated)
              ? ' Rows marked simulated come from the seeded simulated model: a ' +
                'coin, not a model, useful to see flaky fixtures and pass_any_at_n.'
              : ''}
          </p>
        </>
      )}
      {board.humans.length > 0 ? (
        <section aria-labelledby="human-baselines" className="space-y-2" data-testid="human-baselines">
          <h2 id="human-baselines" className="text-lg font-semibold">
            Human baselines
          </h2>
          <p className="max-w-3xl text-sm text-slate-600">
            People who worked fixtures themselves with <code>gitbench human</code>: the same sandbox, tools, limits and
            scoring as an agent, their time and every command recorded as a trajectory. Shown beside the models for
            scale, not ranked among them: a person works the few fixtures they chose, once.
          </p>
          <LeaderboardTable
            rows={board.humans}
            showRank={false}
            filters={filters}
            testId="human-baselines-table"
            linkModels={actor !== null}
          />
        </section>
      ) : null}
      {familiesWithResults.length > 0 ? (
        <section aria-labelledby="families" className="space-y-4" data-testid="leaderboard-families">
          <h2 id="families" className="text-lg font-semibold">
            Task families, with their papers&apos; metrics{' '}
            <Link href="/families" className="text-sm font-normal text-indigo-700 underline">
              all family pages
            </Link>
          </h2>
          {familiesWithResults.map((f) => (
            <div key={f.family} className="space-y-1">
              <h3 className="text-sm font-medium">
                <Link className="hover:underline" href={`/families/${f.family}`}>
                  {FAMILY_TITLES[f.family]}
                </Link>
              </h3>
              <FamilyBoardView board={f} filters={filters} detailed={false} />
            </div>
          ))}
        </section>
      ) : null}
      {agentTargets.length > 0 ? (
        <Section title="Agents" id="agents">
          <AgentStatsTable rows={agentTargets} testId="leaderboard-agent-stats" linkModels={actor !== null} />
        </Section>
      ) : null}
    </div>
  );
}
