import { COMMIT_LOG_PROBE, hashPattern, parseCommitLog, readProbe } from '../probes';
import { pyStrip } from '../python-text';
import { check, configError, verdict } from '../result';
import type { Scorer } from '../types';

/**
 * A commit hash asked for by subject. The hash is looked up in the attempt's own repository
 * (first commit on HEAD's history with exactly that subject), never copied from the fixture.
 * `hash_length: short` expects the first 7 characters, else the full hash. The answer passes when
 * it is that hash or mentions it as a separate hash-like token.
 */
export const commitHashBySubjectScorer: Scorer = {
  type: 'commit_hash_by_subject',
  readsRepositoryOnly: true,
  plan: () => ({ answerCommands: [], probes: [COMMIT_LOG_PROBE] }),
  score({ fixture, output, evidence }) {
    const subject = fixture.scoring.subject;
    if (typeof subject !== 'string' || !subject)
      return configError(fixture, 'commit_hash_by_subject needs scoring.subject');
    const probe = readProbe(evidence, COMMIT_LOG_PROBE.id, 'target commit');
    if (!probe.ok) return verdict(false, 0, [probe.problem]);
    const target = parseCommitLog(probe.record.stdout).find((commit) => commit.subject === subject);
    if (!target)
      return verdict(false, 0, [
        check('target commit', false, `no commit with subject ${JSON.stringify(subject)} in the repository`),
      ]);
    const short = fixture.scoring.hash_length === 'short';
    const expected = short ? target.hash.slice(0, 7) : target.hash;
    const actual = pyStrip(output).toLowerCase();
    const embedded = new Set((actual.match(hashPattern()) ?? []).map((h) => h.toLowerCase()));
    const passed = actual === expected || embedded.has(expected);
    return verdict(passed, passed ? 1 : 0, [
      check('target commit', true, `${JSON.stringify(subject)} is ${target.hash}`),
      check(
        `${short ? 'short' : 'full'} hash`,
        passed,
        passed ? 'answer gives the hash' : 'answer does not give the hash',
        expected,
        pyStrip(output),
      ),
    ]);
  },
};
