import {
  campaignCompleteness,
  countStatuses,
  type Mode,
  type AttemptRow,
  type Completeness,
  type StatusCounts,
  type TargetFigures,
} from '@gitbench/core/figures';
import type { Prisma } from '../generated/prisma/client';
import { sqlRows, type SqlSource } from '../pool';
import { raw, sql } from '../sql';
import { agentTargetStats, type AgentTargetStats } from '../stats/agent-stats';
import { refreshStaleCampaignStats } from '../stats/refresh-stale';
import { readTargetFigures } from '../stats/target-sums';

/** What every view of one campaign shows about it: identity, configuration, state and times. */
export const campaignHeaderSelect = {
  id: true,
  name: true,
  createdBy: true,
  status: true,
  statusDetail: true,
  legacy: true,
  safetyReview: true,
  configHash: true,
  config: true,
  seed: true,
  suiteVersion: true,
  trials: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  cancelledAt: true,
  productVersion: true,
  productDirty: true,
  publishedAt: true,
  publishedBy: true,
} as const satisfies Prisma.CampaignSelect;

export type CampaignHeader = Prisma.CampaignGetPayload<{ select: typeof campaignHeaderSelect }>;

export interface CampaignTargetRow {
  id: string;
  modelId: string;
  baseModel: string;
  effort: string | null;
  outputMode: Mode;
  /** The third-party agent driving the model in agent mode; null: our own loop, or an answer mode. */
  agent: string | null;
  profile: string;
}

export interface CampaignSummary {
  campaign: CampaignHeader;
  targets: CampaignTargetRow[];
  fixtures: number;
  plannedAttempts: number;
  statusCounts: StatusCounts;
  /** Attempts with an outcome (neither queued nor running). */
  done: number;
  completeness: Completeness;
  /** Every target's figures, from the stored stats as the campaign's page reads them (readTargetFigures). */
  perTarget: TargetFigures[];
  /** Targets whose attempts ran as agents: steps per attempt, exit statuses, cost per solved fixture. */
  agentTargets: AgentTargetStats[];
}

/** A campaign's attempts as core's aggregation reads them. */
export async function loadAttemptRows(db: SqlSource, campaignId: string): Promise<AttemptRow[]> {
  const rows = await sqlRows<
    Omit<AttemptRow, 'campaignId' | 'effort' | 'tokens'> & {
      reasoningEffort: string | null;
      totalTokens: number | null;
    }
  >(
    db,
    sql`SELECT "modelId", "reasoningEffort", "outputMode"::text AS "outputMode", "domain", "fixtureId", "difficulty",
      "trial",
                      "status"::text AS "status", "totalTokens", "costUsd", "costEstimated", "apiDurationMs"
                 FROM "Attempt" WHERE "campaignId" = ${campaignId}`,
  );
  return rows.map(({ reasoningEffort, totalTokens, ...r }) => ({
    ...r,
    campaignId,
    effort: reasoningEffort,
    tokens: totalTokens,
  }));
}

/**
 * One campaign's state for `gitbench campaign status` and the API's summary: counts by status, the
 * three parts of completeness and every target's figures. The figures are the campaign page's: the
 * stored stats, brought up to date first (a running campaign's at most once per
 * `runningStatsMinAgeMs`, as the page does). Null when the campaign does not exist.
 */
export async function summarizeCampaign(
  db: SqlSource,
  campaignId: string,
  opts: { runningStatsMinAgeMs?: number } = {},
): Promise<CampaignSummary | null> {
  // Every read here is plain SQL on the pool (sqlRows), none through Prisma's query compiler, whose
  // start-up was most of a `gitbench campaign status`; only refreshing stale stats (a write) takes Prisma.
  const header = raw(
    Object.keys(campaignHeaderSelect)
      .map((column) => `"${column}"`)
      .join(', '),
  );
  const [campaign] = await sqlRows<CampaignHeader>(
    db,
    sql`SELECT ${header} FROM "Campaign" WHERE "id" = ${campaignId}`,
  );
  if (!campaign) return null;
  await refreshStaleCampaignStats(db, { campaignId, minAgeMs: opts.runningStatsMinAgeMs ?? 3_000 });
  const [targets, [fixtures], rows, agentTargets, perTarget] = await Promise.all([
    sqlRows<Omit<CampaignTargetRow, 'effort'> & { reasoningEffort: string | null }>(
      db,
      sql`SELECT "id", "modelId", "baseModel", "reasoningEffort", "outputMode"::text AS "outputMode", "agent", "profile"
                   FROM "CampaignTarget" WHERE "campaignId" = ${campaignId} ORDER BY "modelId" ASC, "outputMode" ASC,
                     "agent" ASC NULLS FIRST`,
    ),
    sqlRows<{ n: bigint }>(db, sql`SELECT count(*) AS n FROM "FixtureSnapshot" WHERE "campaignId" = ${campaignId}`),
    loadAttemptRows(db, campaignId),
    agentTargetStats(db, { campaignId, includeLegacy: true }),
    readTargetFigures(db, [{ id: campaignId, trials: campaign.trials, legacy: campaign.legacy }]),
  ]);
  const statusCounts = countStatuses(rows);
  const fixtureCount = Number(fixtures?.n ?? 0);
  const plannedAttempts = targets.length * fixtureCount * campaign.trials;
  return {
    campaign,
    targets: targets.map((t) => ({
      id: t.id,
      modelId: t.modelId,
      baseModel: t.baseModel,
      effort: t.reasoningEffort,
      outputMode: t.outputMode,
      agent: t.agent,
      profile: t.profile,
    })),
    fixtures: fixtureCount,
    plannedAttempts,
    statusCounts,
    done: rows.length - (statusCounts.QUEUED ?? 0) - (statusCounts.RUNNING ?? 0),
    completeness: campaignCompleteness({ plannedAttempts, statusCounts, safetyReview: campaign.safetyReview }),
    perTarget,
    agentTargets,
  };
}
