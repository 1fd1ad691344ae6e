/**
 * Seeds 1,000,000+ attempts in a schema of its own, refreshes the maintained stats, then times the
 * data each page loads (the same query functions, in the same order the pages call them) and prints
 * p50/p95.
 *   npm run bench:dashboard            # seed, measure, drop the schema
 *   BENCH_KEEP=1 npm run bench:dashboard   # keep the schema (its name is printed) for a look
 *   BENCH_ONLY=trajectory npm run bench:dashboard   # only the agent attempt page (500 steps, 50 MB of output)
 */
import { performance } from 'node:perf_hooks';
import { createDb, refreshCampaignStats, refreshStaleCampaignStats, type Db } from '@gitbench/db';
import { createTestDatabase, runSql } from '@gitbench/test-support';
import { getCampaignFixtureTable, getCampaignOverview } from '../apps/web/lib/queries/campaign';
import { filterOptions, listCampaigns } from '../apps/web/lib/queries/campaigns';
import type { DashboardFilters } from '../apps/web/lib/queries/filters';
import { getFixtureReport } from '../apps/web/lib/queries/fixture';
import { getLeaderboard } from '../apps/web/lib/queries/leaderboard';
import { loadSetUpEnv } from './lib/set-up-env';
import { benchTrajectoryPage } from './lib/bench-trajectory';

loadSetUpEnv();

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 100);
const MODELS = 5; // per campaign, from a pool of 12, each in both output modes
const DOMAINS = 17;
const FIXTURES_PER_DOMAIN = 12;
const TRIALS = 5;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const TARGET_MS = 200;

const seedSql = `
INSERT INTO "Campaign" ("id", "name", "createdBy", "status", "legacy", "safetyReview", "config", "configHash", "seed",
  "suiteVersion", "trials", "createdAt", "startedAt", "finishedAt")
SELECT 'bcmp_' || c, 'Bench campaign ' || c, 'bench',
       (CASE WHEN c % 10 = 0 THEN 'RUNNING' ELSE 'COMPLETED' END)::"CampaignStatus", false, 'not_configured',
       '{}'::jsonb, md5('c' || c), c, CASE WHEN c % 3 = 0 THEN '0.3.1' ELSE '0.4.0' END, ${TRIALS},
       now() - (${CAMPAIGNS} - c) * interval '1 day', now() - (${CAMPAIGNS} - c) * interval '1 day',
       CASE WHEN c % 10 = 0 THEN NULL ELSE now() - (${CAMPAIGNS} - c) * interval '1 day' + interval '40 minutes' END
  FROM generate_series(1, ${CAMPAIGNS}) c;

INSERT INTO "CampaignTarget" ("id", "campaignId", "modelId", "baseModel", "reasoningEffort", "outputMode", "profile")
SELECT 'btgt_' || c || '_' || m || '_' || o, 'bcmp_' || c, 'bench/model-' || ((c + m) % 12),
  'bench/model-' || ((c + m) % 12), NULL,
       (CASE WHEN o = 0 THEN 'text' ELSE 'json_schema' END)::"OutputMode", 'bench'
  FROM generate_series(1, ${CAMPAIGNS}) c, generate_series(1, ${MODELS}) m, generate_series(0, 1) o;

INSERT INTO "FixtureSnapshot" ("id", "campaignId", "domain", "fixtureId", "difficulty", "tags", "definition",
  "scoringType", "inputHash")
SELECT 'bfxs_' || c || '_' || d || '_' || f, 'bcmp_' || c, 'domain_' || lpad(d::text, 2, '0'), 'f' || lpad(f::text, 3,
  '0'),
       (ARRAY['easy', 'medium', 'hard'])[1 + (f % 3)], ARRAY['bench'],
       jsonb_build_object('prompt', 'Do task ' || d || '/' || f, 'expected', 'answer ' || f, 'setup',
         jsonb_build_array('git init -q'),
                          'scoring', jsonb_build_object('type', 'exact_match')),
       'exact_match', md5(d || '/' || f)
  FROM generate_series(1, ${CAMPAIGNS}) c, generate_series(1, ${DOMAINS}) d,
    generate_series(1, ${FIXTURES_PER_DOMAIN}) f;

-- Pass probability depends on the model and the fixture; every tenth campaign is still running and
-- every seventh has a few infrastructure failures, so completeness has something to find.
INSERT INTO "Attempt" ("id", "campaignId", "targetId", "fixtureSnapshotId", "trial", "modelId", "outputMode",
  "domain", "fixtureId",
                       "difficulty", "status", "passed", "score", "tryCount", "queuedAt", "startedAt", "finishedAt",
                         "inputTokens",
                       "outputTokens", "totalTokens", "costUsd", "apiDurationMs", "wallDurationMs")
SELECT 'batt_' || t."id" || '_' || f."domain" || f."fixtureId" || '_' || tr, t."campaignId", t."id", f."id", tr,
  t."modelId", t."outputMode",
       f."domain", f."fixtureId", f."difficulty",
       s.status::"AttemptStatus", s.status = 'VALID_PASS', CASE WHEN s.status LIKE 'VALID%' THEN r.x ELSE NULL END, 1,
       c."createdAt", c."createdAt", CASE WHEN s.status IN ('QUEUED', 'RUNNING') THEN NULL
         ELSE c."createdAt" + (r.x * interval '30 minutes') END,
       200 + (r.x * 300)::int, 10 + (r.x * 90)::int, 210 + (r.x * 390)::int,
       CASE WHEN r.x < 0.05 THEN NULL ELSE 0.0001 + r.x * 0.002 END, 300 + (r.x * 3000)::int, 400 + (r.x * 3500)::int
  FROM "CampaignTarget" t
  JOIN "Campaign" c ON c."id" = t."campaignId"
  JOIN "FixtureSnapshot" f ON f."campaignId" = t."campaignId"
  CROSS JOIN generate_series(1, ${TRIALS}) tr
  CROSS JOIN LATERAL (SELECT ('x' || substr(md5(t."id" || f."id" || tr), 1, 8))::bit(32)::bigint / 4294967296.0 AS x) r
  CROSS JOIN LATERAL (
    SELECT CASE
      WHEN c."status" = 'RUNNING' AND tr = ${TRIALS} THEN 'QUEUED'
      WHEN right(c."id", 1) = '7' AND r.x < 0.004 THEN 'INFRA_FAILURE'
      WHEN r.x < 0.25 + (('x' || substr(md5(t."modelId" || f."fixtureId"), 1, 4))::bit(16)::int / 65536.0) * 0.7
        THEN 'VALID_PASS'
      ELSE 'VALID_FAIL' END AS status) s;
`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  const verdict = p95 < TARGET_MS ? 'ok' : `OVER the ${TARGET_MS} ms target`;
  console.log(
    `${label.padEnd(34)} p50 ${p50.toFixed(1).padStart(7)} ms   ` +
      `p95 ${p95.toFixed(1).padStart(7)} ms   (${ITERATIONS} runs) ${verdict}`,
  );
  return { p50, p95 };
}

/** What app/page.tsx loads. */
async function leaderboardPage(db: Db, filters: DashboardFilters) {
  const campaigns = await listCampaigns(db);
  return Promise.all([getLeaderboard(db, filters, campaigns), filterOptions(db, campaigns)]);
}

/** What app/campaigns/[id]/page.tsx loads, with its staleness check (nothing is stale here). */
async function campaignPage(db: Db, campaignId: string, page: number) {
  await refreshStaleCampaignStats(db, { campaignId, minAgeMs: 3000 });
  return Promise.all([getCampaignOverview(db, campaignId), getCampaignFixtureTable(db, campaignId, { page })]);
}

async function main() {
  const started = performance.now();
  const t = await createTestDatabase(DATABASE_URL, 'bench');
  if (process.env.BENCH_ONLY === 'trajectory') {
    try {
      await benchTrajectoryPage(t.db);
    } finally {
      await t.drop();
    }
    return;
  }
  console.log(
    `schema ${t.schema}: seeding ${CAMPAIGNS} campaigns × ${MODELS * 2} ` +
      `targets × ${DOMAINS * FIXTURES_PER_DOMAIN} fixtures × ${TRIALS} trials`,
  );
  try {
    await runSql(DATABASE_URL, t.schema, seedSql);
    const [{ n }] = await t.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Attempt"`;
    console.log(
      `seeded ${Number(n).toLocaleString('en-US')} attempts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const r0 = performance.now();
    const campaigns = await t.db.campaign.findMany({ select: { id: true }, orderBy: { createdAt: 'asc' } });
    for (const c of campaigns) await refreshCampaignStats(t.db, c.id);
    const refreshMs = performance.now() - r0;
    console.log(
      `refreshCampaignStats: ${campaigns.length} campaigns in ${(refreshMs / 1000).toFixed(1)} ` +
        `s (${(refreshMs / campaigns.length).toFixed(0)} ms each)`,
    );
    await runSql(DATABASE_URL, t.schema, 'VACUUM ANALYZE');

    // A fresh client, sized like the web app's.
    const db = createDb({ databaseUrl: DATABASE_URL, schema: t.schema, maxConnections: 5 });
    const campaignId = campaigns[Math.floor(campaigns.length / 2)]!.id;
    const board = await getLeaderboard(db, {});
    console.log(
      `leaderboard: ${board.rows.length} targets over ${board.included.length} ` +
        `complete campaigns (${board.leftOut.incomplete} incomplete left out)`,
    );
    console.log('');
    await time('leaderboard (default filters)', () => leaderboardPage(db, {}));
    await time('leaderboard (domain + incomplete)', () =>
      leaderboardPage(db, { domain: 'domain_05', incomplete: '1' }),
    );
    await time('campaign page (overview + fixtures)', () => campaignPage(db, campaignId, 2));
    await time('fixture page (10 newest campaigns)', () => getFixtureReport(db, 'domain_07', 'f004'));
    console.log('');
    await benchTrajectoryPage(db);
    await db.$disconnect();
  } finally {
    if (process.env.BENCH_KEEP === '1') {
      await t.db.$disconnect();
      console.log(`kept schema ${t.schema}`);
    } else {
      await t.drop();
    }
  }
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch(async (e) => {
  console.error(e);
  process.exitCode = 1;
});
