import 'server-only';
import { familyOfScoringType, ggbScenarioOfScoringType, type Family, type GgbScenario } from '@gitbench/core';
import { allowedSuites, loadSuite } from '../campaigns/suites';

/** What our suite of a family is, read from the fixtures on disk (never a number written into a page). */
export interface FamilySuite {
  family: Family;
  /** The suite directories holding the family's fixtures, with their versions. */
  suites: { dir: string; version: string }[];
  fixtures: number;
  byDifficulty: Record<string, number>;
  /** Fixture domains: a repository task's modality, a gist's package, a GitGoodBench scenario's group. */
  domains: string[];
  /** GitGoodBench only: fixtures per scenario type. */
  byScenario: Partial<Record<GgbScenario, number>>;
}

export async function familySuites(): Promise<Map<Family, FamilySuite>> {
  const out = new Map<Family, FamilySuite>();
  for (const s of allowedSuites()) {
    const suite = await loadSuite(s.dir);
    for (const f of suite.fixtures) {
      const family = familyOfScoringType(f.scoring.type);
      if (!family) continue;
      let entry = out.get(family);
      if (!entry)
        out.set(family, (entry = { family, suites: [], fixtures: 0, byDifficulty: {}, domains: [], byScenario: {} }));
      if (!entry.suites.some((x) => x.dir === s.dir)) entry.suites.push({ dir: s.dir, version: suite.version });
      entry.fixtures++;
      entry.byDifficulty[f.difficulty] = (entry.byDifficulty[f.difficulty] ?? 0) + 1;
      if (!entry.domains.includes(f.domain)) entry.domains.push(f.domain);
      const scenario = ggbScenarioOfScoringType(f.scoring.type);
      if (scenario) entry.byScenario[scenario] = (entry.byScenario[scenario] ?? 0) + 1;
    }
  }
  for (const e of out.values()) e.domains.sort();
  return out;
}
