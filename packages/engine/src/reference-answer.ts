import type { Fixture } from './core-api';
import type { FixtureSnapshot } from './fixture-snapshot';

/**
 * The correct answer to a fixture, for self-check. Usually `expected`; but where the answer is a commit
 * id, `expected` names the commit (its subject, or text of its reflog line) because ids are only known
 * once the repository is built, so the id is looked up in the snapshot.
 */
export function referenceAnswer(fixture: Fixture, snapshot: FixtureSnapshot): string {
  switch (fixture.scoring.type) {
    case 'reflog_recovery': {
      const hit = snapshot.commits.find(
        (c) => c.subject.includes(fixture.expected) || fixture.expected.includes(c.subject),
      );
      return hit?.hash ?? fixture.expected;
    }
    case 'commit_hash_by_subject': {
      const subject = fixture.scoring.subject;
      const hit = snapshot.commits.find((c) => c.subject === subject);
      if (!hit) return fixture.expected;
      return fixture.scoring.hash_length === 'short' ? hit.hash.slice(0, 7) : hit.hash;
    }
    default:
      return fixture.expected;
  }
}
