import {
  analyzeItems,
  isControlModelId,
  isHumanModelId,
  targetKeyOf,
  VALID_ATTEMPT_STATUSES,
  type ItemAnalysis,
  type ItemCell,
  type Mode,
} from '@gitbench/core';
import { Prisma, toCsv, type Db } from '@gitbench/db';
import { statusArraySql } from './common';

/**
 * Item analysis over a suite: every campaign that ran the suite, every target (model or agent × output
 * mode × effort) in them, and each fixture's scored attempts (the settling try's outcome, VALID_PASS or
 * VALID_FAIL; excluded attempts are no evidence about the target). The counting happens in SQL, one row
 * per (target, fixture); the statistics are core's.
 *
 * People (`gitbench human`, targets `human:<name>`) are shown beside the targets, never counted among
 * them: the pass rate, the discrimination and the flags describe how the fixture separates models and
 * agents, and a person's one or two attempts would enter them as a target with a rest score over a
 * handful of fixtures (and make a fixture look easier or harder for models than it is).
 *
 * A suite is the directory a campaign's configuration names (fixtures.suiteDir); a configuration without
 * one (a legacy import, an old campaign) ran the schema's default, `fixtures`.
 */
export const DEFAULT_SUITE_DIR = 'fixtures';

const suiteOf = Prisma.sql`coalesce(c."config"->'fixtures'->>'suiteDir', ${DEFAULT_SUITE_DIR})`;

export interface SuiteListing {
  suite: string;
  campaigns: number;
  lastRunAt: Date;
}

export async function listSuites(db: Db): Promise<SuiteListing[]> {
  return db.$queryRaw<SuiteListing[]>`
    SELECT ${suiteOf} AS "suite", count(*)::int AS "campaigns", max(c."createdAt") AS "lastRunAt"
      FROM "Campaign" c GROUP BY 1 ORDER BY 1`;
}

export interface SuiteItem extends ItemAnalysis {
  /** The label as frozen in the newest campaign that ran the fixture. */
  difficulty: string;
  /** The human baselines of the fixture, beside the targets and not counted in any figure above. */
  people: PeopleFigures;
}

export interface PeopleFigures {
  /** People with a scored attempt of the fixture. */
  people: number;
  /** People who passed it at least once. */
  passing: number;
  passes: number;
  scored: number;
}

export interface SuiteItemAnalysis {
  suite: string;
  campaigns: { id: string; name: string; legacy: boolean }[];
  /** Distinct targets with at least one scored attempt in the suite (the ones counted). */
  targets: number;
  /**
   * Built-in controls (oracle, mock, nop, simulated) are left out unless asked for: they pass or fail by construction.
   */
  controls: { included: boolean; models: string[] };
  /** People with a scored attempt in the suite (human baselines): shown per fixture, never counted as targets. */
  people: string[];
  /** Sorted by signal (core's bySignal). */
  items: SuiteItem[];
}

export interface ItemAnalysisOptions {
  /** Count the built-in controls as targets too (a demo of nothing but them, a check of the scorers). */
  includeControls?: boolean;
}

/** Null when no campaign ran the suite. */
export async function getSuiteItemAnalysis(
  db: Db,
  suite: string,
  opts: ItemAnalysisOptions = {},
): Promise<SuiteItemAnalysis | null> {
  const campaigns = await db.$queryRaw<{ id: string; name: string; legacy: boolean }[]>`
    SELECT c."id", c."name", c."legacy" FROM "Campaign" c WHERE ${suiteOf} = ${suite} ORDER BY c."createdAt" DESC,
      c."id"`;
  if (campaigns.length === 0) return null;
  const ids = campaigns.map((c) => c.id);
  const [rows, labels] = await Promise.all([
    db.$queryRaw<
      {
        modelId: string;
        effort: string | null;
        outputMode: Mode;
        domain: string;
        fixtureId: string;
        passes: number;
        scored: number;
      }[]
    >`
      SELECT a."modelId", a."reasoningEffort" AS "effort", a."outputMode"::text AS "outputMode", a."domain",
        a."fixtureId",
             count(*) FILTER (WHERE a."status" = 'VALID_PASS')::int AS "passes", count(*)::int AS "scored"
        FROM "Attempt" a
       WHERE a."campaignId" = ANY(${ids}::text[]) AND a."status" = ANY(${statusArraySql(VALID_ATTEMPT_STATUSES)})
       GROUP BY 1, 2, 3, 4, 5`,
    db.$queryRaw<{ domain: string; fixtureId: string; difficulty: string }[]>`
      SELECT DISTINCT ON (f."domain", f."fixtureId") f."domain", f."fixtureId", f."difficulty"
        FROM "FixtureSnapshot" f JOIN "Campaign" c ON c."id" = f."campaignId"
       WHERE f."campaignId" = ANY(${ids}::text[])
       ORDER BY f."domain", f."fixtureId", c."createdAt" DESC`,
  ]);
  const includeControls = opts.includeControls ?? false;
  const controls = [...new Set(rows.map((r) => r.modelId).filter(isControlModelId))].sort();
  const human = rows.filter((r) => isHumanModelId(r.modelId));
  const counted = rows.filter((r) => !isHumanModelId(r.modelId) && (includeControls || !isControlModelId(r.modelId)));
  const cells: ItemCell[] = counted.map((r) => ({
    target: targetKeyOf({ modelId: r.modelId, effort: r.effort, outputMode: r.outputMode }),
    domain: r.domain,
    fixtureId: r.fixtureId,
    passes: r.passes,
    scored: r.scored,
  }));
  const difficulty = new Map(labels.map((l) => [JSON.stringify([l.domain, l.fixtureId]), l.difficulty]));
  return {
    suite,
    campaigns,
    targets: new Set(cells.map((c) => c.target)).size,
    controls: { included: includeControls, models: controls },
    people: [...new Set(human.map((r) => r.modelId))].sort(),
    items: analyzeItems(cells).map((i) => ({
      ...i,
      difficulty: difficulty.get(JSON.stringify([i.domain, i.fixtureId])) ?? '',
      people: peopleFigures(human.filter((r) => r.domain === i.domain && r.fixtureId === i.fixtureId)),
    })),
  };
}

function peopleFigures(rows: readonly { modelId: string; passes: number; scored: number }[]): PeopleFigures {
  const byPerson = new Map<string, { passes: number; scored: number }>();
  for (const r of rows) {
    const p = byPerson.get(r.modelId) ?? { passes: 0, scored: 0 };
    byPerson.set(r.modelId, { passes: p.passes + r.passes, scored: p.scored + r.scored });
  }
  const all = [...byPerson.values()];
  return {
    people: all.length,
    passing: all.filter((p) => p.passes > 0).length,
    passes: all.reduce((s, p) => s + p.passes, 0),
    scored: all.reduce((s, p) => s + p.scored, 0),
  };
}

export interface FixtureItem {
  suite: string;
  targets: number;
  controls: SuiteItemAnalysis['controls'];
  item: SuiteItem;
}

export interface FixtureItemAnalysis {
  /** The fixture's figures in every suite whose campaigns ran it (usually one). */
  rows: FixtureItem[];
  /**
   * Suites where only built-in controls scored the fixture while controls are left out: it has scored attempts, so
   * the page must not say it has none, and counting the controls shows them.
   */
  controlsOnly: { suite: string; controls: SuiteItemAnalysis['controls'] }[];
}

export async function getFixtureItemAnalysis(
  db: Db,
  domain: string,
  fixtureId: string,
  opts: ItemAnalysisOptions = {},
): Promise<FixtureItemAnalysis> {
  const suites = await db.$queryRaw<{ suite: string }[]>`
    SELECT DISTINCT ${suiteOf} AS "suite"
      FROM "FixtureSnapshot" f JOIN "Campaign" c ON c."id" = f."campaignId"
     WHERE f."domain" = ${domain} AND f."fixtureId" = ${fixtureId} ORDER BY 1`;
  const out: FixtureItemAnalysis = { rows: [], controlsOnly: [] };
  const isThis = (i: SuiteItem) => i.domain === domain && i.fixtureId === fixtureId;
  for (const { suite } of suites) {
    const analysis = await getSuiteItemAnalysis(db, suite, opts);
    if (!analysis) continue;
    const item = analysis.items.find(isThis);
    if (item) out.rows.push({ suite, targets: analysis.targets, controls: analysis.controls, item });
    else if (!analysis.controls.included && analysis.controls.models.length > 0) {
      // Read again with the controls: the rare case of a fixture that only they have scored.
      const withControls = await getSuiteItemAnalysis(db, suite, { ...opts, includeControls: true });
      if (withControls?.items.some(isThis)) out.controlsOnly.push({ suite, controls: analysis.controls });
    }
  }
  return out;
}

/** One row per fixture, most signal first; an undefined discrimination stays empty, never 0. */
export function itemAnalysisCsv(a: SuiteItemAnalysis): string {
  return toCsv(
    [
      'suite',
      'domain',
      'fixture',
      'difficulty',
      'targets',
      'targets_passing',
      'passes',
      'scored',
      'pass_rate',
      'ci_low',
      'ci_high',
      'discrimination',
      'discrimination_targets',
      'saturated',
      'unsolved',
      'flaky',
      'people',
      'people_passing',
      'people_passes',
      'people_scored',
    ],
    a.items.map((i) => [
      a.suite,
      i.domain,
      i.fixtureId,
      i.difficulty,
      i.targets,
      i.targetsPassing,
      i.passRate.numerator,
      i.passRate.denominator,
      i.passRate.value,
      i.passRate.interval?.low,
      i.passRate.interval?.high,
      i.discrimination,
      i.discriminationTargets,
      i.flags.saturated,
      i.flags.unsolved,
      i.flags.flaky,
      i.people.people,
      i.people.passing,
      i.people.passes,
      i.people.scored,
    ]),
  );
}
