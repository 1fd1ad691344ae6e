import {
  rateOf,
  summarizeSeries,
  type AttemptRow,
  type AttemptStatus,
  type Mode,
  type Rate,
  type SeriesSummary,
} from '@gitbench/core';
import { Prisma, readTargetFigures, sql, type Db } from '@gitbench/db';
import { includedCampaigns, listCampaigns, type CampaignListItem } from './campaigns';
import { difficultyRank, num } from './common';
import { suiteOfView, type DashboardFilters } from './filters';
import type { LeaderboardRow } from './leaderboard';

export interface SliceCell {
  outputMode: Mode;
  /** The third-party agent driving the model in agent mode; null: our own loop or an answer mode. */
  agent: string | null;
  key: string;
  rate: Rate;
  flaky: number;
  classified: number;
}

export interface ModelReport {
  modelId: string;
  /** The suite version the targets and slices are over; null when the reader asked for all suites pooled. */
  suite: string | null;
  targets: LeaderboardRow[];
  byDomain: SliceCell[];
  byDifficulty: SliceCell[];
  /** Every campaign that ran the model, oldest first, with mean success per output mode. */
  overTime: {
    campaignId: string;
    name: string;
    suiteVersion: string;
    createdAt: Date;
    legacy: boolean;
    complete: boolean;
    outputMode: Mode;
    agent: string | null;
    rate: Rate;
  }[];
  fixtures: {
    campaign: CampaignListItem | null;
    rows: {
      outputMode: string;
      summary: SeriesSummary;
      attempts: { id: string; trial: number; status: AttemptStatus }[];
    }[];
  };
  included: CampaignListItem[];
  campaignsWithModel: CampaignListItem[];
}

export async function getModelReport(
  db: Db,
  modelId: string,
  f: DashboardFilters,
  fixtureCampaignId?: string,
): Promise<ModelReport | null> {
  const all = await listCampaigns(db);
  const withModel = await db.$queryRaw<{ campaignId: string }[]>`
    SELECT DISTINCT "campaignId" FROM "CampaignTarget" WHERE "modelId" = ${modelId}`;
  if (withModel.length === 0) return null;
  const ids = new Set(withModel.map((r) => r.campaignId));
  const campaignsWithModel = all.filter((c) => ids.has(c.id));
  // Its figures are over one suite version (the newest it ran in an included campaign unless one is
  // chosen): rates over different fixture sets averaged together are not one figure.
  const suite = suiteOfView(f, includedCampaigns(campaignsWithModel, f));
  const included = includedCampaigns(campaignsWithModel, { ...f, suite: suite ?? f.suite });
  const includedIds = included.map((c) => c.id);
  const modelWhere = Prisma.sql`AND s."modelId" = ${modelId}`;

  const slice = (dim: 'domain' | 'difficulty') =>
    includedIds.length === 0
      ? Promise.resolve(
          [] as {
            outputMode: Mode;
            agent: string | null;
            key: string;
            v: unknown;
            p: unknown;
            fl: unknown;
            fx: unknown;
          }[],
        )
      : db.$queryRaw<
          { outputMode: Mode; agent: string | null; key: string; v: unknown; p: unknown; fl: unknown; fx: unknown }[]
        >`
          SELECT s."outputMode"::text AS "outputMode", s."agent", s.${Prisma.raw(`"${dim}"`)} AS key,
            sum(s."valid") v, sum(s."passes") p,
                 coalesce(sum(s."flaky") FILTER (WHERE NOT c."legacy"), 0) fl, coalesce(sum(s."fixtures")
                   FILTER (WHERE NOT c."legacy"), 0) fx
            FROM "CampaignStats" s JOIN "Campaign" c ON c."id" = s."campaignId"
           WHERE s."campaignId" = ANY(${includedIds}::text[]) ${modelWhere}
             ${f.mode ? Prisma.sql`AND s."outputMode" = ${f.mode}::"OutputMode"` : Prisma.empty}
             ${f.domain ? Prisma.sql`AND s."domain" = ${f.domain}` : Prisma.empty}
             ${f.difficulty ? Prisma.sql`AND s."difficulty" = ${f.difficulty}` : Prisma.empty}
           GROUP BY 1, 2, 3 ORDER BY 3, 1, 2`;
  const toCells = (rows: Awaited<ReturnType<typeof slice>>): SliceCell[] =>
    rows.map((r) => ({
      outputMode: r.outputMode,
      agent: r.agent,
      key: r.key,
      rate: rateOf(num(r.p), num(r.v)),
      flaky: num(r.fl),
      classified: num(r.fx),
    }));
  // Difficulties read in their own order (trivial to expert), not alphabetically.
  const byDifficultyOrder = (cells: SliceCell[]) =>
    [...cells].sort(
      (a, b) => difficultyRank(a.key) - difficultyRank(b.key) || a.outputMode.localeCompare(b.outputMode),
    );

  const [targets, byDomain, byDifficulty, overTime] = await Promise.all([
    // The stats reads build their statements with db's sql, not Prisma's: the same filter, in that form.
    readTargetFigures(db, included, f, sql`AND s."modelId" = ${modelId}`),
    slice('domain'),
    slice('difficulty'),
    db.$queryRaw<{ campaignId: string; outputMode: Mode; agent: string | null; v: unknown; p: unknown }[]>`
      SELECT s."campaignId", s."outputMode"::text AS "outputMode", s."agent", sum(s."valid") v, sum(s."passes") p
        FROM "CampaignTargetStats" s WHERE s."modelId" = ${modelId} GROUP BY 1, 2, 3`,
  ]);

  const fixtureCampaign =
    campaignsWithModel.find((c) => c.id === fixtureCampaignId) ?? included[0] ?? campaignsWithModel[0] ?? null;
  let fixtureRows: ModelReport['fixtures']['rows'] = [];
  if (fixtureCampaign) {
    const attempts = await db.$queryRaw<
      (Omit<AttemptRow, 'effort'> & { id: string; reasoningEffort: string | null })[]
    >`
      SELECT a."id", a."campaignId", a."modelId", a."reasoningEffort", a."outputMode"::text AS "outputMode", a."domain",
             a."fixtureId", a."difficulty", a."trial", a."status"::text AS "status"
        FROM "Attempt" a WHERE a."campaignId" = ${fixtureCampaign.id} AND a."modelId" = ${modelId}
       ORDER BY a."domain", a."fixtureId", a."outputMode", a."trial"`;
    const rows: AttemptRow[] = attempts.map((a) => ({
      ...a,
      effort: a.reasoningEffort,
      tokens: null,
      costUsd: null,
      costEstimated: false,
      apiDurationMs: null,
    }));
    const facts = { [fixtureCampaign.id]: { trials: fixtureCampaign.trials, legacy: fixtureCampaign.legacy } };
    fixtureRows = summarizeSeries(rows, facts).map((summary) => ({
      outputMode: summary.series.outputMode,
      summary,
      attempts: attempts
        .filter(
          (a) =>
            a.domain === summary.series.domain &&
            a.fixtureId === summary.series.fixtureId &&
            a.outputMode === summary.series.outputMode,
        )
        .map((a) => ({ id: a.id, trial: a.trial, status: a.status })),
    }));
  }

  const byId = new Map(all.map((c) => [c.id, c]));
  return {
    modelId,
    suite,
    targets,
    byDomain: toCells(byDomain),
    byDifficulty: byDifficultyOrder(toCells(byDifficulty)),
    overTime: overTime
      .filter((r) => byId.has(r.campaignId))
      .map((r) => {
        const c = byId.get(r.campaignId)!;
        return {
          campaignId: c.id,
          name: c.name,
          suiteVersion: c.suiteVersion,
          createdAt: c.createdAt,
          legacy: c.legacy,
          complete: c.complete,
          outputMode: r.outputMode,
          agent: r.agent,
          rate: rateOf(num(r.p), num(r.v)),
        };
      })
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.outputMode.localeCompare(b.outputMode)),
    fixtures: { campaign: fixtureCampaign, rows: fixtureRows },
    included,
    campaignsWithModel,
  };
}

/** Distinct models with data, for pickers (compare, model index). */
export async function listModels(db: Db) {
  return db.$queryRaw<{ modelId: string; outputMode: Mode; agent: string | null; campaigns: number }[]>`
    SELECT "modelId", "outputMode"::text AS "outputMode", "agent", count(DISTINCT "campaignId")::int AS campaigns
      FROM "CampaignTarget" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 NULLS FIRST`;
}
