import type { Fixture } from '../src/core-api';

/** A fixture whose set-up makes one commit with one file: the smallest real build. */
export function oneCommitFixture(overrides: Partial<Fixture> = {}): Fixture {
  return {
    domain: 'pinned',
    id: 'f001',
    description: 'a pinned fixture',
    difficulty: 'easy',
    tags: [],
    setup: ['git init -q', "echo 'hello' > a.txt", 'git add a.txt', "git commit -qm 'first'"],
    prompt: 'Show the log.',
    expected: 'first',
    scoring: { type: 'exact_match' },
    sourcePath: 'pinned/f001.yaml',
    ...overrides,
  };
}
