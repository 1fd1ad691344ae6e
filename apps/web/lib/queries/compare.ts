import {
  compareTargets,
  rateOf,
  sameTarget,
  type AttemptRow,
  type AttemptStatus,
  type Rate,
  type TargetComparison,
} from '@gitbench/core';
import { Prisma, type Db } from '@gitbench/db';
import { includedCampaigns, listCampaigns, type CampaignListItem } from './campaigns';
import type { Mode } from '@gitbench/core';
import { num } from './common';
import type { DashboardFilters } from './filters';

/** A target to compare: a model in an output mode, and in agent mode the agent driving it (null: our own loop). */
export interface CompareSide {
  modelId: string;
  outputMode: Mode;
  agent?: string | null;
}

export interface CompareReport {
  a: CompareSide;
  b: CompareSide;
  included: CampaignListItem[];
  byDomain: { domain: string; a: Rate; b: Rate; diff: number | null }[];
  comparison: TargetComparison;
  /** Per-fixture valid pass/fail tallies behind each pair. */
  tallies: Record<string, { a?: { pass: number; fail: number }; b?: { pass: number; fail: number } }>;
}

/**
 * Two targets over the same included campaigns: per-domain mean success from the stats, and per
 * fixture the exact McNemar test of core's compareTargets. SQL tallies valid passes and fails per
 * fixture; those tallies are all compareTargets reads, so they are handed to it as minimal rows.
 */
export async function compareModels(
  db: Db,
  a: CompareSide,
  b: CompareSide,
  f: DashboardFilters,
): Promise<CompareReport> {
  const sides = [a, b];
  // Over a table with the target's columns (CampaignTarget, CampaignStats): the agent is part of the target.
  const sideSql = Prisma.join(
    sides.map(
      (s) =>
        Prisma.sql`("modelId" = ${s.modelId} AND "outputMode" = ${s.outputMode}::"OutputMode"
          AND "agent" IS NOT DISTINCT FROM ${s.agent ?? null})`,
    ),
    ' OR ',
  );
  // The page says "over N included campaigns": those that ran either side, not every campaign the filters let in.
  const [all, withSides] = await Promise.all([
    listCampaigns(db),
    db.$queryRaw<{ campaignId: string }[]>`SELECT DISTINCT "campaignId" FROM "CampaignTarget" WHERE ${sideSql}`,
  ]);
  const ran = new Set(withSides.map((r) => r.campaignId));
  const included = includedCampaigns(all, f).filter((c) => ran.has(c.id));
  const ids = included.map((c) => c.id);
  const domainSql = f.domain ? Prisma.sql`AND "domain" = ${f.domain}` : Prisma.empty;
  const difficultySql = f.difficulty ? Prisma.sql`AND "difficulty" = ${f.difficulty}` : Prisma.empty;
  const sliceSql = Prisma.sql`${domainSql} ${difficultySql}`;
  const [domains, fixtures] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db.$queryRaw<
            { modelId: string; outputMode: string; agent: string | null; domain: string; v: unknown; p: unknown }[]
          >`
            SELECT "modelId", "outputMode"::text AS "outputMode", "agent", "domain", sum("valid") v, sum("passes") p
              FROM "CampaignStats" WHERE "campaignId" = ANY(${ids}::text[]) AND (${sideSql}) ${sliceSql}
             GROUP BY 1, 2, 3, 4`,
          // An attempt's agent is its target's: the attempts of the sides' targets in these campaigns.
          db.$queryRaw<
            {
              modelId: string;
              outputMode: string;
              agent: string | null;
              domain: string;
              fixtureId: string;
              pass: unknown;
              fail: unknown;
            }[]
          >`
            SELECT t."modelId", t."outputMode"::text AS "outputMode", t."agent", a."domain", a."fixtureId",
                   count(*) FILTER (WHERE a."status" = 'VALID_PASS') pass, count(*)
                     FILTER (WHERE a."status" = 'VALID_FAIL') fail
              FROM "Attempt" a JOIN (SELECT * FROM "CampaignTarget" WHERE "campaignId" = ANY(${ids}::text[])
                AND (${sideSql})) t ON t."id" = a."targetId"
             WHERE a."campaignId" = ANY(${ids}::text[])
               ${f.domain ? Prisma.sql`AND a."domain" = ${f.domain}` : Prisma.empty}
               ${f.difficulty ? Prisma.sql`AND a."difficulty" = ${f.difficulty}` : Prisma.empty}
               AND a."status" IN ('VALID_PASS', 'VALID_FAIL')
             GROUP BY 1, 2, 3, 4, 5`,
        ]);
  const isSide = (s: CompareSide, r: { modelId: string; outputMode: string; agent: string | null }) => sameTarget(s, r);
  const rowsFor = (s: CompareSide): AttemptRow[] =>
    fixtures
      .filter((r) => isSide(s, r))
      .flatMap((r) => {
        const mk = (status: AttemptStatus): AttemptRow => ({
          campaignId: '',
          modelId: s.modelId,
          effort: null,
          outputMode: s.outputMode,
          domain: r.domain,
          fixtureId: r.fixtureId,
          difficulty: '',
          trial: 0,
          status,
          tokens: null,
          costUsd: null,
          costEstimated: false,
          apiDurationMs: null,
        });
        return [
          ...Array.from({ length: num(r.pass) }, () => mk('VALID_PASS')),
          ...Array.from({ length: num(r.fail) }, () => mk('VALID_FAIL')),
        ];
      });
  const tallies: CompareReport['tallies'] = {};
  for (const r of fixtures) {
    const key = `${r.domain}/${r.fixtureId}`;
    const entry = (tallies[key] ??= {});
    if (isSide(a, r)) entry.a = { pass: num(r.pass), fail: num(r.fail) };
    if (isSide(b, r)) entry.b = { pass: num(r.pass), fail: num(r.fail) };
  }
  const domainNames = [...new Set(domains.map((d) => d.domain))].sort();
  const rate = (s: CompareSide, domain: string) => {
    const rows = domains.filter((d) => isSide(s, d) && d.domain === domain);
    return rateOf(
      rows.reduce((x, r) => x + num(r.p), 0),
      rows.reduce((x, r) => x + num(r.v), 0),
    );
  };
  return {
    a,
    b,
    included,
    byDomain: domainNames.map((domain) => {
      const ra = rate(a, domain);
      const rb = rate(b, domain);
      return { domain, a: ra, b: rb, diff: ra.value !== null && rb.value !== null ? ra.value - rb.value : null };
    }),
    comparison: compareTargets(rowsFor(a), rowsFor(b)),
    tallies,
  };
}
