import type { Fixture } from '../fixtures/types';
import { compareCodeUnits } from '../canonical-json';
import type { FixtureSelection } from './config-schema';

export type SelectableFixture = Pick<Fixture, 'domain' | 'id' | 'difficulty' | 'tags'>;

export interface FixtureSelectionResult<F extends SelectableFixture> {
  /** Sorted by domain, then id: the order the plan uses. */
  fixtures: F[];
  /** Explicit ids that name no fixture of the suite: a typo the user should see, never silently dropped. */
  unknownIds: string[];
}

export function fixtureKey(fixture: { domain: string; id: string }): string {
  return `${fixture.domain}/${fixture.id}`;
}

export function compareFixtures(a: { domain: string; id: string }, b: { domain: string; id: string }): number {
  return compareCodeUnits(a.domain, b.domain) || compareCodeUnits(a.id, b.id);
}

/** Applies a selection: each non-empty list narrows (AND across lists, OR within one list). */
export function selectFixtures<F extends SelectableFixture>(
  selection: Pick<FixtureSelection, 'domains' | 'difficulties' | 'tags' | 'ids'>,
  suite: readonly F[],
): FixtureSelectionResult<F> {
  const domains = new Set(selection.domains);
  const difficulties = new Set<string>(selection.difficulties);
  const tags = new Set(selection.tags);
  const ids = new Set(selection.ids);

  const fixtures = suite
    .filter(
      (f) =>
        (domains.size === 0 || domains.has(f.domain)) &&
        (difficulties.size === 0 || difficulties.has(f.difficulty)) &&
        (tags.size === 0 || f.tags.some((t) => tags.has(t))) &&
        (ids.size === 0 || ids.has(fixtureKey(f))),
    )
    .sort(compareFixtures);

  const known = new Set(suite.map(fixtureKey));
  const unknownIds = [...ids].filter((id) => !known.has(id)).sort(compareCodeUnits);
  return { fixtures, unknownIds };
}
