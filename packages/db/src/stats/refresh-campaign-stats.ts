import { ATTEMPT_STATUSES, isValidOutcome, modelAnswered, type CampaignFactsById } from '@gitbench/core/figures';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';

import { addRound, addSeries, emptyRow, rollUpByTarget, type RoundRow, type SeriesRow } from './campaign-stats-rows';

export interface RefreshResult {
  campaignId: string;
  /** CampaignStats rows written (one per target × domain × difficulty). */
  rows: number;
  attempts: number;
}

// Core decides which statuses are quality outcomes and which mean the model answered (and so should
// have reported usage); the SQL below only counts by these lists.
const VALID = ATTEMPT_STATUSES.filter(isValidOutcome);
const ANSWERED = ATTEMPT_STATUSES.filter(modelAnswered);

/**
 * Rebuilds a campaign's CampaignStats rows from its attempts. SQL does the heavy grouping (one row per
 * fixture series, one per trial round); core's series functions decide each fixture's classification
 * and pass_any_at_n contribution, so the leaderboard's sums mean exactly what the methodology says.
 * Idempotent and safe to call while the campaign runs: an advisory lock serialises concurrent
 * refreshes of one campaign and the delete + insert commit together, so readers never see half a campaign.
 */
export async function refreshCampaignStats(db: Db, campaignId: string): Promise<RefreshResult> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'campaign-stats:' + campaignId}))`;
      const campaign = await tx.campaign.findUnique({
        where: { id: campaignId },
        select: { trials: true, legacy: true },
      });
      if (!campaign) throw new Error(`Campaign ${campaignId} does not exist.`);

      const series = await tx.$queryRaw<SeriesRow[]>`
        SELECT a."targetId", t."modelId", t."reasoningEffort", t."outputMode", t."agent",
               a."domain", a."fixtureId", min(a."difficulty") AS "difficulty",
               array_agg(a."status"::text ORDER BY a."trial", a."id") AS "statuses",
               array_agg(a."trial" ORDER BY a."trial", a."id") AS "trials"
          FROM "Attempt" a
          JOIN "CampaignTarget" t ON t."id" = a."targetId"
         WHERE a."campaignId" = ${campaignId}
         GROUP BY a."targetId", t."modelId", t."reasoningEffort", t."outputMode", t."agent", a."fixtureSnapshotId",
           a."domain", a."fixtureId"`;

      const rounds = await tx.$queryRaw<RoundRow[]>`
        SELECT a."targetId", a."domain", a."difficulty", a."trial",
               count(*)::int AS "attempts",
               (count(*) FILTER (WHERE a."status"::text = ANY(${VALID}::text[])))::int AS "valid",
               coalesce(sum(a."inputTokens"), 0)::bigint AS "inputTokens",
               coalesce(sum(a."outputTokens"), 0)::bigint AS "outputTokens",
               coalesce(sum(a."reasoningTokens"), 0)::bigint AS "reasoningTokens",
               sum(a."totalTokens")::bigint AS "tokens",
               count(a."totalTokens")::int AS "tokensKnown",
               (count(*) FILTER (WHERE a."status"::text = ANY(${ANSWERED}::text[])
                 OR a."totalTokens" IS NOT NULL))::int AS "tokensExpected",
               sum(a."costUsd") AS "costUsd",
               count(a."costUsd")::int AS "costKnown",
               (count(*) FILTER (WHERE a."costUsd" IS NOT NULL AND a."costEstimated"))::int AS "costEstimated",
               (count(*) FILTER (WHERE a."status"::text = ANY(${ANSWERED}::text[]) OR a."costUsd" IS NOT NULL))::int
                 AS "costExpected",
               sum(a."apiDurationMs")::bigint AS "apiMs",
               count(a."apiDurationMs")::int AS "apiKnown",
               (count(*) FILTER (WHERE a."status"::text = ANY(${ANSWERED}::text[])
                 OR a."apiDurationMs" IS NOT NULL))::int AS "apiExpected"
          FROM "Attempt" a
         WHERE a."campaignId" = ${campaignId}
         GROUP BY a."targetId", a."domain", a."difficulty", a."trial"`;

      const facts: CampaignFactsById = { [campaignId]: { trials: campaign.trials, legacy: campaign.legacy } };
      const groups = new Map<string, Prisma.CampaignStatsCreateManyInput>();
      const keyOf = (r: { targetId: string; domain: string; difficulty: string }) =>
        JSON.stringify([r.targetId, r.domain, r.difficulty]);
      let attempts = 0;
      for (const s of series) {
        attempts += s.statuses.length;
        const key = keyOf(s);
        let g = groups.get(key);
        if (!g) {
          g = emptyRow(campaignId, s, campaign.legacy ? 0 : campaign.trials, campaign.trials);
          groups.set(key, g);
        }
        addSeries(g, s, facts, campaignId);
      }
      for (const r of rounds) {
        const g = groups.get(keyOf(r));
        // Both queries read the same attempts in one transaction, so every round has its group.
        if (!g) throw new Error(`Trial round without a series: ${keyOf(r)} in ${campaignId}.`);
        addRound(g, r);
      }

      await tx.campaignStats.deleteMany({ where: { campaignId } });
      await tx.campaignTargetStats.deleteMany({ where: { campaignId } });
      const data = [...groups.values()];
      if (data.length > 0) {
        await tx.campaignStats.createMany({ data });
        await tx.campaignTargetStats.createMany({ data: rollUpByTarget(data) });
      }
      return { campaignId, rows: data.length, attempts };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}
