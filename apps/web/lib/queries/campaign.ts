import {
  campaignCompleteness,
  estimateEta,
  rateOf,
  summarizeSeries,
  wallClockMs,
  type AttemptRow,
  type AttemptStatus,
  type Completeness,
  type Rate,
  type SeriesSummary,
  type StatusCounts,
} from '@gitbench/core';
import { campaignHeaderSelect, Prisma, readTargetFigures, type CampaignHeader, type Db } from '@gitbench/db';
import { num, type TargetKey } from './common';
import type { LeaderboardRow } from './leaderboard';

export interface CampaignOverview {
  campaign: CampaignHeader;
  targets: (TargetKey & { id: string; profile: string })[];
  fixtureCount: number;
  plannedAttempts: number;
  statusCounts: StatusCounts;
  done: number;
  completeness: Completeness;
  wallClockMs: number | null;
  etaMs: number | null;
  /** Per target: every aggregate, resources per complete trial and in total, from the maintained stats. */
  perModel: LeaderboardRow[];
  heatmap: { targetId: string; domain: string; rate: Rate }[];
  domains: string[];
  statsRefreshedAt: Date | null;
  /** What judging cost the campaign (LLM judge members, history judge calls); null when nothing was judged. */
  judging: JudgeSpend | null;
}

export interface JudgeSpend {
  /** Attempts a judge decided (a verdict from the campaign's cache counts, with no call). */
  attempts: number;
  calls: number;
  /** Summed over the calls that reported them; null when none did. */
  totalTokens: number | null;
  costUsd: number | null;
  /** Attempts whose judge calls reported no cost: the sum leaves them out. */
  unknownCost: number;
}

/** Everything on the campaign page except the fixture table. Null when the campaign does not exist. */
export async function getCampaignOverview(db: Db, campaignId: string): Promise<CampaignOverview | null> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: campaignHeaderSelect });
  if (!campaign) return null;

  const [targets, fixtureCount, byStatus, recent, heat, refreshed, judged] = await Promise.all([
    db.campaignTarget.findMany({
      where: { campaignId },
      orderBy: [{ modelId: 'asc' }, { outputMode: 'asc' }, { agent: { sort: 'asc', nulls: 'first' } }],
    }),
    db.fixtureSnapshot.count({ where: { campaignId } }),
    db.$queryRaw<{ status: AttemptStatus; n: unknown }[]>`
      SELECT "status"::text AS "status", count(*) AS n FROM "Attempt" WHERE "campaignId" = ${campaignId} GROUP BY 1`,
    db.$queryRaw<{ ms: number }[]>`
      SELECT "wallDurationMs" AS ms FROM "Attempt"
       WHERE "campaignId" = ${campaignId} AND "status" IN ('VALID_PASS', 'VALID_FAIL') AND "wallDurationMs" IS NOT NULL
         AND "finishedAt" IS NOT NULL
       ORDER BY "finishedAt" DESC LIMIT 50`,
    db.$queryRaw<{ targetId: string; domain: string; v: unknown; p: unknown }[]>`
      SELECT "targetId", "domain", sum("valid") v, sum("passes") p FROM "CampaignStats"
       WHERE "campaignId" = ${campaignId} GROUP BY 1, 2`,
    db.campaignStats.aggregate({ where: { campaignId }, _max: { refreshedAt: true } }),
    db.$queryRaw<{ attempts: unknown; calls: unknown; tokens: unknown; cost: number | null; unknown_cost: unknown }[]>`
      SELECT count(*) FILTER (WHERE "judgeCalls" IS NOT NULL) AS attempts, coalesce(sum("judgeCalls"), 0) AS calls,
             sum("judgeTotalTokens") AS tokens, sum("judgeCostUsd") AS cost,
             count(*) FILTER (WHERE "judgeCalls" > 0 AND "judgeCostUsd" IS NULL) AS unknown_cost
        FROM "Attempt" WHERE "campaignId" = ${campaignId}`,
  ]);
  const j = judged[0];

  const statusCounts: StatusCounts = {};
  let recorded = 0;
  for (const r of byStatus) {
    statusCounts[r.status] = num(r.n);
    recorded += num(r.n);
  }
  const plannedAttempts = targets.length * fixtureCount * campaign.trials;
  const remaining = (statusCounts.QUEUED ?? 0) + (statusCounts.RUNNING ?? 0);
  const running = campaign.status === 'RUNNING' || campaign.status === 'QUEUED';
  const eta = running
    ? estimateEta({
        remainingAttempts: remaining,
        completedDurationsMs: recent.map((r) => num(r.ms)),
        concurrency: Math.max(1, statusCounts.RUNNING ?? 1),
      })
    : null;

  const perModel = await readTargetFigures(db, [{ id: campaignId, trials: campaign.trials, legacy: campaign.legacy }]);
  const completeness = campaignCompleteness({ plannedAttempts, statusCounts, safetyReview: campaign.safetyReview });

  return {
    campaign: { ...campaign, status: campaign.status },
    targets: targets.map((t) => ({
      id: t.id,
      modelId: t.modelId,
      effort: t.reasoningEffort,
      outputMode: t.outputMode,
      agent: t.agent,
      profile: t.profile,
    })),
    fixtureCount,
    plannedAttempts,
    statusCounts,
    done: recorded - remaining,
    completeness,
    wallClockMs: wallClockMs(campaign),
    etaMs: eta?.remainingMs ?? null,
    perModel,
    heatmap: heat.map((h) => ({ targetId: h.targetId, domain: h.domain, rate: rateOf(num(h.p), num(h.v)) })),
    domains: [...new Set(heat.map((h) => h.domain))].sort(),
    statsRefreshedAt: refreshed._max.refreshedAt,
    judging:
      j && num(j.attempts) > 0
        ? {
            attempts: num(j.attempts),
            calls: num(j.calls),
            totalTokens: j.tokens === null ? null : num(j.tokens),
            costUsd: j.cost,
            unknownCost: num(j.unknown_cost),
          }
        : null,
  };
}

export interface FixtureTableRow {
  domain: string;
  fixtureId: string;
  difficulty: string;
  /** One cell per target id. */
  cells: Record<string, { summary: SeriesSummary; attempts: { id: string; trial: number; status: AttemptStatus }[] }>;
}

export interface FixtureTable {
  rows: FixtureTableRow[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One page of the campaign's fixtures with each target's series: attempts in trial order, mean success,
 * classification (core's classifySeries) and pass_any flags. Only this page's attempts are read.
 */
export async function getCampaignFixtureTable(
  db: Db,
  campaignId: string,
  opts: { page?: number; pageSize?: number; domain?: string } = {},
): Promise<FixtureTable | null> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { trials: true, legacy: true } });
  if (!campaign) return null;
  const pageSize = Math.min(Math.max(Math.floor(opts.pageSize ?? 50) || 50, 1), 200);
  const domainWhere = opts.domain ? Prisma.sql`AND f."domain" = ${opts.domain}` : Prisma.empty;
  const countRow = await db.$queryRaw<
    { n: unknown }[]
  >`SELECT count(*) n FROM "FixtureSnapshot" f WHERE f."campaignId" = ${campaignId} ${domainWhere}`;
  // A page from the URL (1e20, 1.5, -3) is clamped to the pages there are: an OFFSET past a bigint failed.
  const lastPage = Math.max(1, Math.ceil(num(countRow[0]?.n) / pageSize));
  const page = Math.min(Math.max(Math.floor(opts.page ?? 1) || 1, 1), lastPage);
  const attempts = await db.$queryRaw<
    (Omit<AttemptRow, 'effort'> & { id: string; targetId: string; reasoningEffort: string | null })[]
  >`
      WITH page AS (
        SELECT f."id", f."domain", f."fixtureId" FROM "FixtureSnapshot" f
         WHERE f."campaignId" = ${campaignId} ${domainWhere}
         ORDER BY f."domain", f."fixtureId" LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize})
      SELECT a."id", a."targetId", a."campaignId", a."modelId", a."reasoningEffort", a."outputMode"::text
        AS "outputMode",
             a."domain", a."fixtureId", a."difficulty", a."trial", a."status"::text AS "status"
        FROM page JOIN "Attempt" a
          ON a."campaignId" = ${campaignId} AND a."domain" = page."domain" AND a."fixtureId" = page."fixtureId"
       ORDER BY a."domain", a."fixtureId", a."trial"`;
  const facts = { [campaignId]: { trials: campaign.trials, legacy: campaign.legacy } };
  const rows = new Map<string, FixtureTableRow>();
  const byTarget = new Map<string, typeof attempts>();
  for (const a of attempts) {
    const key = `${a.domain}/${a.fixtureId}`;
    if (!rows.has(key))
      rows.set(key, { domain: a.domain, fixtureId: a.fixtureId, difficulty: a.difficulty, cells: {} });
    const k = `${key}|${a.targetId}`;
    const list = byTarget.get(k) ?? [];
    list.push(a);
    byTarget.set(k, list);
  }
  for (const [k, list] of byTarget) {
    const [key, targetId] = k.split('|') as [string, string];
    const asRows: AttemptRow[] = list.map((a) => ({
      ...a,
      effort: a.reasoningEffort,
      tokens: null,
      costUsd: null,
      costEstimated: false,
      apiDurationMs: null,
    }));
    const [summary] = summarizeSeries(asRows, facts);
    if (summary) {
      rows.get(key)!.cells[targetId] = {
        summary,
        attempts: list.map((a) => ({ id: a.id, trial: a.trial, status: a.status })),
      };
    }
  }
  return { rows: [...rows.values()], total: num(countRow[0]?.n), page, pageSize };
}
