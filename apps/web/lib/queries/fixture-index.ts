import type { Db } from '@gitbench/db';
import { num } from './common';

export interface IndexedFixture {
  fixtureId: string;
  difficulty: string;
  campaigns: number;
}

export interface FixtureIndexSuite {
  suiteVersion: string;
  domains: { domain: string; fixtures: IndexedFixture[] }[];
  fixtures: number;
}

/**
 * Every fixture some campaign has run, by suite version and domain: the campaigns' own snapshots, since
 * a fixture page shows what was run, not what is on disk today. One pass over the snapshots.
 */
export async function getFixtureIndex(db: Db): Promise<FixtureIndexSuite[]> {
  const rows = await db.$queryRaw<
    { suiteVersion: string; domain: string; fixtureId: string; difficulty: string; campaigns: unknown }[]
  >`
    SELECT c."suiteVersion", f."domain", f."fixtureId", min(f."difficulty") AS "difficulty",
      count(DISTINCT f."campaignId") AS "campaigns"
      FROM "FixtureSnapshot" f JOIN "Campaign" c ON c."id" = f."campaignId"
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3`;
  const suites = new Map<string, Map<string, IndexedFixture[]>>();
  for (const r of rows) {
    const domains = suites.get(r.suiteVersion) ?? new Map<string, IndexedFixture[]>();
    suites.set(r.suiteVersion, domains);
    domains.set(r.domain, [
      ...(domains.get(r.domain) ?? []),
      { fixtureId: r.fixtureId, difficulty: r.difficulty, campaigns: num(r.campaigns) },
    ]);
  }
  return [...suites].map(([suiteVersion, domains]) => ({
    suiteVersion,
    fixtures: [...domains.values()].reduce((n, f) => n + f.length, 0),
    domains: [...domains].map(([domain, fixtures]) => ({ domain, fixtures })),
  }));
}
