import type { CompletionResult, FixtureRef, Provider } from '@gitbench/providers';
import { answerIsRun, type Fixture } from './core-api';
import type { FixtureSnapshot } from './fixture-snapshot';

/**
 * What the engine needs from a model: a providers Provider's `complete`. Mock, oracle, simulated,
 * replay and hosted models all come from @gitbench/providers' registry; the engine has none of its own.
 */
export type ModelClient = Pick<Provider, 'name' | 'complete'>;

/** A model's answer with everything recorded about the call (usage, cost, route, retries). */
export type ModelResponse = CompletionResult;

/**
 * What scripted providers answer by: the fixture's identity and difficulty, the correct answer for
 * this repository (the oracle's), and the repository's commits (replay maps recorded ids onto them).
 * Hosted models never see it.
 */
export function fixtureRef(
  fixture: Fixture,
  snapshot: FixtureSnapshot,
  expected: string,
  expectedStructured?: unknown,
): FixtureRef {
  const ref: FixtureRef = {
    domain: fixture.domain,
    id: fixture.id,
    difficulty: fixture.difficulty,
    expected,
    commits: snapshot.commits,
    repoDir: snapshot.repoDir,
    answerIsRun: answerIsRun(fixture),
  };
  if (expectedStructured !== undefined) ref.expectedStructured = expectedStructured;
  return ref;
}
