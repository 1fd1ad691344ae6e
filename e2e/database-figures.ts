import pg from 'pg';
import type { DashboardSeed } from '../packages/test-support/src/campaign-plans';

/**
 * The campaigns, targets, fixtures and attempts of some models as rows of the tests' database, in the
 * shape the dashboard reference (apps/web/test/support/dashboard-reference.ts) computes figures from:
 * for specs that check pages against attempts they did not seed themselves (the legacy imports).
 */
export async function figuresOf(modelIds: readonly string[]): Promise<DashboardSeed> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const campaigns = await client.query<{
      id: string;
      name: string;
      legacy: boolean;
      trials: number;
      suiteVersion: string;
      safetyReview: string;
      createdAt: Date;
    }>(
      `SELECT id, name, legacy, trials, "suiteVersion", "safetyReview", "createdAt" FROM "Campaign"
        WHERE id IN (SELECT "campaignId" FROM "CampaignTarget" WHERE "modelId" = ANY($1))`,
      [modelIds],
    );
    const ids = campaigns.rows.map((c) => c.id);
    const [targets, fixtures, attempts] = await Promise.all([
      client.query<{ campaignId: string; modelId: string; reasoningEffort: string | null; outputMode: string }>(
        `SELECT "campaignId", "modelId", "reasoningEffort", "outputMode"::text AS "outputMode" FROM "CampaignTarget"
          WHERE "campaignId" = ANY($1)`,
        [ids],
      ),
      client.query<{ campaignId: string; domain: string; fixtureId: string; difficulty: string }>(
        `SELECT "campaignId", domain, "fixtureId", difficulty FROM "FixtureSnapshot" WHERE "campaignId" = ANY($1)`,
        [ids],
      ),
      client.query(
        `SELECT id, "campaignId", "modelId", "reasoningEffort" AS effort, "outputMode"::text AS "outputMode", domain,
          "fixtureId", difficulty, trial,
                status::text AS status, "tryCount", "costUsd", "costEstimated", "totalTokens" AS tokens, "apiDurationMs"
           FROM "Attempt" WHERE "campaignId" = ANY($1)`,
        [ids],
      ),
    ]);
    return {
      campaigns: campaigns.rows.map((c) => ({
        ...c,
        createdAt: c.createdAt.toISOString(),
        targets: targets.rows
          .filter((t) => t.campaignId === c.id)
          .map((t) => ({ modelId: t.modelId, effort: t.reasoningEffort, outputMode: t.outputMode as 'text' })),
        fixtures: fixtures.rows
          .filter((f) => f.campaignId === c.id)
          .map(({ domain, fixtureId, difficulty }) => ({ domain, fixtureId, difficulty })),
      })),
      attempts: attempts.rows.map((a: Record<string, unknown>) => ({
        ...a,
        tries: Array(a.tryCount as number).fill(a.status),
      })) as DashboardSeed['attempts'],
    };
  } finally {
    await client.end();
  }
}
