import {
  familyMetrics,
  familyOfScoringType,
  familyOutcomeSchema,
  GGB_SCORING_TYPES,
  type Family,
  type FamilyAttemptFacts,
  type FamilyMetrics,
  type FamilyOutcome,
} from '@gitbench/core';
import type { Db } from '../client';
import type { OutputMode } from '../generated/prisma/client';

/** The scoring types of a family's fixtures. */
export function familyScoringTypes(family: Family): string[] {
  return family === 'ggb' ? Object.values(GGB_SCORING_TYPES) : [family];
}

interface FamilyAttemptRow {
  modelId: string;
  reasoningEffort: string | null;
  outputMode: OutputMode;
  campaignId: string;
  domain: string;
  fixtureId: string;
  difficulty: string;
  scoringType: string;
  costUsd: number | null;
  outcome: unknown;
}

export interface FamilyTargetStats {
  modelId: string;
  reasoningEffort: string | null;
  outputMode: OutputMode;
  /** Campaigns whose attempts are pooled in this row. */
  campaigns: string[];
  /** Outcomes that could not be read (counted as no outcome, so they stay in the denominators). */
  unreadable: number;
  metrics: FamilyMetrics;
}

/**
 * A family's metrics per target (model × effort × output mode) over the given campaigns, computed by
 * core from the outcome each attempt's latest try recorded with its score. SQL reads one small JSON
 * value per attempt, not the evidence record; every planned attempt of the family is read, finished
 * or not, because the papers' denominators are every task of the suite.
 */
export async function familyStats(
  db: Db,
  family: Family,
  campaignIds: readonly string[],
): Promise<FamilyTargetStats[]> {
  if (campaignIds.length === 0) return [];
  const rows = await db.$queryRaw<FamilyAttemptRow[]>`
    SELECT t."modelId", t."reasoningEffort", t."outputMode", a."campaignId", a."domain", a."fixtureId", a."difficulty",
           f."scoringType", a."costUsd", last."outcome"
      FROM "Attempt" a
      JOIN "CampaignTarget" t ON t."id" = a."targetId"
      JOIN "FixtureSnapshot" f ON f."id" = a."fixtureSnapshotId"
      LEFT JOIN LATERAL (
        SELECT tr."evidence" -> 'scoring' -> 'family' AS "outcome"
          FROM "AttemptTry" tr WHERE tr."attemptId" = a."id" ORDER BY tr."tryNumber" DESC LIMIT 1
      ) last ON true
     WHERE a."campaignId" = ANY(${[...campaignIds]}::text[])
       AND f."scoringType" = ANY(${familyScoringTypes(family)}::text[])
     ORDER BY t."modelId", t."reasoningEffort", t."outputMode", a."id"`;
  const groups = new Map<
    string,
    { row: FamilyAttemptRow; campaigns: Set<string>; facts: FamilyAttemptFacts[]; unreadable: number }
  >();
  for (const r of rows) {
    const key = JSON.stringify([r.modelId, r.reasoningEffort, r.outputMode]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { row: r, campaigns: new Set(), facts: [], unreadable: 0 }));
    g.campaigns.add(r.campaignId);
    let outcome: FamilyOutcome | null = null;
    if (r.outcome !== null && r.outcome !== undefined) {
      const parsed = familyOutcomeSchema.safeParse(r.outcome);
      if (parsed.success && familyOfScoringType(r.scoringType) === parsed.data.family) outcome = parsed.data;
      else g.unreadable++;
    }
    g.facts.push({
      fixture: `${r.domain}/${r.fixtureId}`,
      scoringType: r.scoringType,
      difficulty: r.difficulty,
      costUsd: r.costUsd,
      outcome,
    });
  }
  return [...groups.values()].map((g) => ({
    modelId: g.row.modelId,
    reasoningEffort: g.row.reasoningEffort,
    outputMode: g.row.outputMode,
    campaigns: [...g.campaigns].sort(),
    unreadable: g.unreadable,
    metrics: familyMetrics(family, g.facts),
  }));
}

/** Which families each of the given campaigns has fixtures of, with its attempt count in each. */
export async function familiesInCampaigns(
  db: Db,
  campaignIds: readonly string[],
): Promise<{ campaignId: string; family: Family; attempts: number }[]> {
  if (campaignIds.length === 0) return [];
  const rows = await db.$queryRaw<{ campaignId: string; scoringType: string; attempts: number }[]>`
    SELECT f."campaignId", f."scoringType", count(a."id")::int AS "attempts"
      FROM "FixtureSnapshot" f JOIN "Attempt" a ON a."fixtureSnapshotId" = f."id"
     WHERE f."campaignId" = ANY(${[...campaignIds]}::text[])
     GROUP BY f."campaignId", f."scoringType"`;
  const sums = new Map<string, { campaignId: string; family: Family; attempts: number }>();
  for (const r of rows) {
    const family = familyOfScoringType(r.scoringType);
    if (!family) continue;
    const key = `${r.campaignId} ${family}`;
    const have = sums.get(key) ?? { campaignId: r.campaignId, family, attempts: 0 };
    sums.set(key, { ...have, attempts: have.attempts + r.attempts });
  }
  return [...sums.values()];
}
