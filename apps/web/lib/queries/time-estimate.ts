import { estimateCampaignTime, type CampaignTimeEstimate, type Mode } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import { num } from './common';

/** Recent enough to predict the next attempts; the same window the running campaign's ETA uses. */
const RECENT_ATTEMPTS = 50;
/** A worker whose heartbeat is older than this is not counted as running anything (as on /status). */
const WORKER_FRESH_MS = 20_000;

/**
 * How long a campaign not launched yet would take: each target's latest finished attempts (any
 * campaign, valid outcomes only) give its mean attempt time, the live workers' concurrency how many
 * run at once. One index probe per target on (modelId, outputMode, status).
 */
export async function campaignTimeEstimate(
  db: Db,
  targets: readonly { modelId: string; outputMode: Mode; attempts: number }[],
): Promise<CampaignTimeEstimate> {
  if (targets.length === 0) return estimateCampaignTime([], 0);
  const [times, workers] = await Promise.all([
    db.$queryRaw<{ modelId: string; outputMode: string; mean: unknown }[]>`
      SELECT t."modelId", t."outputMode", avg(a.ms) AS mean
        FROM unnest(${targets.map((t) => t.modelId)}::text[], ${targets.map((t) => t.outputMode)}::text[])
          AS t("modelId", "outputMode")
        LEFT JOIN LATERAL (
          SELECT x."wallDurationMs" AS ms FROM "Attempt" x
           WHERE x."modelId" = t."modelId" AND x."outputMode" = t."outputMode"::"OutputMode"
             AND x."status" IN ('VALID_PASS', 'VALID_FAIL') AND x."wallDurationMs" IS NOT NULL
               AND x."finishedAt" IS NOT NULL
           ORDER BY x."finishedAt" DESC LIMIT ${RECENT_ATTEMPTS}) a ON true
       GROUP BY 1, 2`,
    db.workerHeartbeat.aggregate({
      where: { lastSeenAt: { gt: new Date(Date.now() - WORKER_FRESH_MS) } },
      _sum: { concurrency: true },
    }),
  ]);
  const mean = new Map(times.map((r) => [`${r.modelId}|${r.outputMode}`, r.mean === null ? null : num(r.mean)]));
  return estimateCampaignTime(
    targets.map((t) => ({ attempts: t.attempts, meanMs: mean.get(`${t.modelId}|${t.outputMode}`) ?? null })),
    workers._sum.concurrency ?? 0,
  );
}
