import { summarizeSeries, type AttemptRow, type AttemptStatus, type Mode, type SeriesSummary } from '@gitbench/core';
import { Prisma, type Db } from '@gitbench/db';
import { num } from './common';

export interface FixtureSeriesRow {
  campaignId: string;
  campaignName: string;
  legacy: boolean;
  createdAt: Date;
  targetId: string;
  modelId: string;
  effort: string | null;
  outputMode: Mode;
  summary: SeriesSummary;
  attempts: {
    id: string;
    trial: number;
    status: AttemptStatus;
    score: number | null;
    costUsd: number | null;
    apiDurationMs: number | null;
  }[];
}

export interface FixtureReport {
  domain: string;
  fixtureId: string;
  /** The definition as frozen in the chosen (or latest) campaign's snapshot. */
  snapshot: {
    campaignId: string;
    difficulty: string;
    tags: string[];
    scoringType: string;
    definition: Record<string, unknown>;
    inputHash: string | null;
    repoState: string | null;
    setupLog: string | null;
  };
  /** Campaigns that ran this fixture, newest first (for the selector). */
  campaigns: { id: string; name: string; legacy: boolean; createdAt: Date }[];
  series: FixtureSeriesRow[];
  shownCampaigns: number;
}

/**
 * A fixture across campaigns, targets and trials. By default the ten newest campaigns that ran it;
 * `campaignId` narrows to one. Reads through the (domain, fixtureId, ...) index only this fixture's attempts.
 */
export async function getFixtureReport(
  db: Db,
  domain: string,
  fixtureId: string,
  opts: { campaignId?: string; campaignLimit?: number } = {},
): Promise<FixtureReport | null> {
  const campaigns = await db.$queryRaw<
    { id: string; name: string; legacy: boolean; createdAt: Date; trials: number }[]
  >`
    SELECT c."id", c."name", c."legacy", c."createdAt", c."trials"
      FROM "FixtureSnapshot" f JOIN "Campaign" c ON c."id" = f."campaignId"
     WHERE f."domain" = ${domain} AND f."fixtureId" = ${fixtureId}
     ORDER BY c."createdAt" DESC`;
  if (campaigns.length === 0) return null;
  const shown = opts.campaignId
    ? campaigns.filter((c) => c.id === opts.campaignId)
    : campaigns.slice(0, opts.campaignLimit ?? 10);
  if (shown.length === 0) return null;
  const ids = shown.map((c) => c.id);

  const [snapshot, attempts] = await Promise.all([
    db.fixtureSnapshot.findFirstOrThrow({
      where: { campaignId: shown[0]!.id, domain, fixtureId },
      select: {
        campaignId: true,
        difficulty: true,
        tags: true,
        scoringType: true,
        definition: true,
        inputHash: true,
        repoState: true,
        setupLog: true,
      },
    }),
    db.$queryRaw<
      {
        id: string;
        campaignId: string;
        targetId: string;
        modelId: string;
        reasoningEffort: string | null;
        outputMode: Mode;
        difficulty: string;
        trial: number;
        status: AttemptStatus;
        score: number | null;
        costUsd: number | null;
        apiDurationMs: number | null;
      }[]
    >`
      SELECT a."id", a."campaignId", a."targetId", a."modelId", a."reasoningEffort", a."outputMode"::text
        AS "outputMode",
             a."difficulty", a."trial", a."status"::text AS "status", a."score", a."costUsd", a."apiDurationMs"
        FROM "Attempt" a
       WHERE a."domain" = ${domain} AND a."fixtureId" = ${fixtureId} AND a."campaignId" = ANY(${ids}::text[])
       ORDER BY a."campaignId", a."modelId", a."outputMode", a."trial"`,
  ]);

  const facts = Object.fromEntries(shown.map((c) => [c.id, { trials: c.trials, legacy: c.legacy }]));
  const groups = new Map<string, typeof attempts>();
  for (const a of attempts) {
    const k = `${a.campaignId}|${a.targetId}`;
    const g = groups.get(k) ?? [];
    g.push(a);
    groups.set(k, g);
  }
  const series: FixtureSeriesRow[] = [];
  for (const c of shown) {
    for (const [k, list] of groups) {
      if (!k.startsWith(`${c.id}|`)) continue;
      const first = list[0]!;
      const rows: AttemptRow[] = list.map((a) => ({
        campaignId: a.campaignId,
        modelId: a.modelId,
        effort: a.reasoningEffort,
        outputMode: a.outputMode,
        domain,
        fixtureId,
        difficulty: a.difficulty,
        trial: a.trial,
        status: a.status,
        tokens: null,
        costUsd: a.costUsd,
        costEstimated: false,
        apiDurationMs: a.apiDurationMs,
      }));
      const [summary] = summarizeSeries(rows, facts);
      series.push({
        campaignId: c.id,
        campaignName: c.name,
        legacy: c.legacy,
        createdAt: c.createdAt,
        targetId: first.targetId,
        modelId: first.modelId,
        effort: first.reasoningEffort,
        outputMode: first.outputMode,
        summary: summary!,
        attempts: list.map((a) => ({
          id: a.id,
          trial: a.trial,
          status: a.status,
          score: a.score,
          costUsd: a.costUsd,
          apiDurationMs: a.apiDurationMs == null ? null : num(a.apiDurationMs),
        })),
      });
    }
  }
  return {
    domain,
    fixtureId,
    snapshot: { ...snapshot, definition: (snapshot.definition ?? {}) as Record<string, unknown> },
    campaigns: campaigns.map(({ id, name, legacy, createdAt }) => ({ id, name, legacy, createdAt })),
    series,
    shownCampaigns: shown.length,
  };
}

/** Fixtures known to the dashboard, for links and search: one row per (domain, fixture). */
export async function listFixtures(db: Db, opts: { domain?: string } = {}) {
  return db.$queryRaw<{ domain: string; fixtureId: string; difficulty: string; campaigns: number }[]>`
    SELECT "domain", "fixtureId", min("difficulty") AS "difficulty", count(*)::int AS "campaigns"
      FROM "FixtureSnapshot" ${opts.domain ? Prisma.sql`WHERE "domain" = ${opts.domain}` : Prisma.empty}
     GROUP BY 1, 2 ORDER BY 1, 2`;
}

/** One person's attempt at a fixture (gitbench human), with what makes it a baseline: the time and the commands. */
export interface HumanBaseline {
  attemptId: string;
  modelId: string;
  status: AttemptStatus;
  passed: boolean | null;
  wallDurationMs: number | null;
  commands: number | null;
  exitStatus: string | null;
  finishedAt: Date | null;
}

/**
 * Every person's attempts at this fixture, whichever campaigns hold them (the series above show the
 * ten newest campaigns only, and a baseline should not drop out of sight as models run). Newest first.
 */
export async function getHumanBaselines(db: Db, domain: string, fixtureId: string): Promise<HumanBaseline[]> {
  const rows = await db.attempt.findMany({
    where: { domain, fixtureId, modelId: { startsWith: 'human:' } },
    orderBy: { finishedAt: 'desc' },
    take: 50,
    select: {
      id: true,
      modelId: true,
      status: true,
      passed: true,
      wallDurationMs: true,
      finishedAt: true,
      trajectories: { orderBy: { tryNumber: 'desc' }, take: 1, select: { steps: true, exitStatus: true } },
    },
  });
  return rows.map((r) => ({
    attemptId: r.id,
    modelId: r.modelId,
    status: r.status,
    passed: r.passed,
    wallDurationMs: r.wallDurationMs,
    commands: r.trajectories[0]?.steps ?? null,
    exitStatus: r.trajectories[0]?.exitStatus ?? null,
    finishedAt: r.finishedAt,
  }));
}
