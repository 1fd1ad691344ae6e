import Link from 'next/link';
import { notFound } from 'next/navigation';
import { campaignReleased, isSimulatedModelId, roleAtLeast } from '@gitbench/core';
import { agentTargetStats, refreshStaleCampaignStats } from '@gitbench/db';
import { CampaignFixtureTable } from '@/components/campaign-fixture-table';
import { CampaignLive } from '@/components/campaign-live';
import { CompletenessPanel } from '@/components/completeness-panel';
import { ReviewPanel } from '@/components/review-panel';
import { EmptyState, Section } from '@/components/empty-state';
import { AgentStatsTable } from '@/components/agent-stats-table';
import { ExportLinks } from '@/components/export-links';
import { duration, int, plural, productVersion, usd } from '@/components/format';
import { CopyButton } from '@/components/copy-button';
import { LocalTime } from '@/components/local-time';
import { Heatmap } from '@/components/heatmap';
import { LeaderboardTable } from '@/components/leaderboard-table';
import { SelectForm } from '@/components/select-form';
import { LegacyBadge, SimulatedBadge, StatusBadge } from '@/components/status-badge';
import { getCampaignFixtureTable, getCampaignOverview, type JudgeSpend } from '@/lib/queries/campaign';
import { services } from '@/lib/services';
import { publicLeaderboard, requirePublicPage, sendToSignIn } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

// While a campaign runs its stats go stale with every attempt; refresh them at most this often.
const RUNNING_STATS_MIN_AGE_MS = 3_000;

/** Why a campaign has no attempts to show, in the words of its status. */
/** What judging cost: operational context beside the targets' figures, never part of them. */
function JudgeSpendLine({ spend }: { spend: JudgeSpend }) {
  return (
    <p className="text-xs text-slate-600" data-testid="judge-spend">
      Judging: {spend.attempts} attempt{spend.attempts === 1 ? '' : 's'} decided by a judge with {spend.calls} model
      call{spend.calls === 1 ? '' : 's'}
      {spend.calls < spend.attempts
        ? ' (verdicts from the campaign’s cache or the scripted judge make none)'
        : ''}, {spend.totalTokens === null ? 'tokens unknown' : `${int(spend.totalTokens)} tokens`},{' '}
      {spend.costUsd === null ? 'cost unknown' : usd(spend.costUsd)}
      {spend.unknownCost > 0
        ? ` (${spend.unknownCost} attempt${spend.unknownCost === 1 ? '' : 's'} of unknown cost left out)`
        : ''}
      . Not counted in the targets&apos; cost above.
    </p>
  );
}

function noAttemptsYet(status: string, detail: string | null): string {
  if (status === 'CANCELLED') return 'It was cancelled before any attempt was planned, so nothing ran.';
  if (status === 'FAILED') return `Planning failed${detail ? `: ${detail}` : ''}. Nothing ran.`;
  return 'The worker is building each fixture’s repository to plan the attempts; figures appear here as they finish.';
}

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
  const simulated = o.targets.some((t) => isSimulatedModelId(t.modelId));

  const shape = `${plural(c.trials, 'trial')} · ${plural(o.targets.length, 'target')} × ${o.fixtureCount} fixtures`;
  const seeded = `${shape} · seed ${c.seed}`;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm text-slate-500">
          <Link href={actor ? '/campaigns' : '/'} className="hover:underline">
            {actor ? 'Campaigns' : 'Leaderboard'}
          </Link>{' '}
          / {c.id} <CopyButton text={c.id} label="campaign id" />
        </p>
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
          {c.name} <StatusBadge status={c.status} /> {c.legacy ? <LegacyBadge /> : null}{' '}
          {simulated ? <SimulatedBadge /> : null}
        </h1>
        <p className="text-sm text-slate-600">
          {actor ? `By ${c.createdBy} · ` : ''}created <LocalTime at={c.createdAt} /> · suite {c.suiteVersion} ·{' '}
          {seeded} · wall clock {c.legacy ? '— (not recorded for imports)' : duration(o.wallClockMs)}
        </p>
        <p className="break-all font-mono text-xs text-slate-500" data-testid="campaign-hashes">
          config hash {c.configHash} <CopyButton text={c.configHash} label="config hash" /> · GitBench{' '}
          {productVersion(c.productVersion, c.productDirty)}
        </p>
        {c.statusDetail ? <p className="text-sm text-rose-700">{c.statusDetail}</p> : null}
        {c.legacy ? (
          <p className="rounded border border-violet-200 bg-violet-50 p-3 text-sm text-violet-900">
            A legacy campaign imported from an upstream result file: one trial and no repeated-trial evidence, so no
            stability classification or pass_any_at_n is claimed for it. It is never in default rankings.
          </p>
        ) : null}
        {simulated ? (
          <p className="rounded border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
            Targets marked simulated are answered by a seeded coin, not by a model: their figures show how flaky
            fixtures and pass_any_at_n look, and say nothing about any model.
          </p>
        ) : null}
        {actor ? (
          <ExportLinks
            href={(format) => `/api/export/campaigns/${id}?format=${format}`}
            what="attempts of this campaign"
            noun="attempts"
            extra={[{ href: `/api/export/campaigns/${id}?format=aa`, label: 'Export artificialanalysis rows (CSV)' }]}
          />
        ) : null}
      </div>

      {actor ? (
        <CampaignLive
          campaignId={id}
          legacy={c.legacy}
          initial={{ status: c.status, total, done: o.done, byStatus: o.statusCounts as Record<string, number> }}
          initialEtaSeconds={o.etaMs === null ? null : o.etaMs / 1000}
        />
      ) : null}

      <Section title="Completeness" id="completeness-title">
        <CompletenessPanel completeness={o.completeness} legacy={c.legacy} safetyReview={c.safetyReview} />
        {c.legacy || !actor ? null : (
          <div className="mt-3">
            <ReviewPanel
              campaignId={id}
              safetyReview={c.safetyReview}
              publishedAt={c.publishedAt?.toISOString() ?? null}
              publishedBy={c.publishedBy}
              canAct={roleAtLeast(actor.role, 'member')}
              finished={c.status !== 'PLANNING' && c.status !== 'RUNNING'}
              publicLeaderboard={publicLeaderboard()}
            />
          </div>
        )}
      </Section>

      <Section
        title="Per model"
        id="per-model"
        aside={
          <span className="text-xs text-slate-500">
            figures as of <LocalTime at={o.statsRefreshedAt} />
          </span>
        }
      >
        {o.perModel.length === 0 ? (
          <EmptyState title="No attempts yet">{noAttemptsYet(c.status, c.statusDetail)}</EmptyState>
        ) : (
          <>
            <LeaderboardTable
              rows={o.perModel}
              showRank={false}
              filters={{ campaign: id }}
              testId="per-model"
              countCampaigns={false}
              linkModels={actor !== null}
            />
            <p className="text-xs text-slate-500">
              Cost, tokens and API time: mean per complete trial round (every attempt of the round has a valid outcome),
              with the campaign total underneath. API time adds up time spent waiting on providers across parallel
              attempts; the wall clock above is the elapsed time.
            </p>
            {o.judging ? <JudgeSpendLine spend={o.judging} /> : null}
          </>
        )}
      </Section>

      {agentTargets.length > 0 ? (
        <Section title="Agents" id="agents">
          <AgentStatsTable rows={agentTargets} linkModels={actor !== null} />
        </Section>
      ) : null}

      {o.heatmap.length > 0 ? (
        <Section title="Mean success by model and domain" id="heatmap-title">
          <Heatmap
            targets={o.targets}
            domains={o.domains}
            cell={(targetId, d) => o.heatmap.find((h) => h.targetId === targetId && h.domain === d)?.rate}
          />
        </Section>
      ) : null}

      {actor ? (
        <Section
          title={`Fixtures (${table.total})`}
          id="fixtures"
          aside={
            <SelectForm
              formLabel="Filter fixtures by domain"
              label="Domain"
              name="domain"
              value={domain ?? ''}
              options={[{ value: '', label: 'All' }, ...o.domains.map((d) => ({ value: d, label: d }))]}
            />
          }
        >
          <CampaignFixtureTable
            campaignId={id}
            targets={o.targets}
            table={table}
            domain={domain}
            noAttempts={noAttemptsYet(c.status, c.statusDetail)}
          />
        </Section>
      ) : (
        <p className="text-sm text-slate-600" data-testid="public-note">
          Aggregates of a published campaign.{' '}
          <Link className="text-indigo-700 underline" href={`/sign-in?next=${encodeURIComponent(`/campaigns/${id}`)}`}>
            Sign in
          </Link>{' '}
          for its fixtures and attempts.
        </p>
      )}
    </div>
  );
}
