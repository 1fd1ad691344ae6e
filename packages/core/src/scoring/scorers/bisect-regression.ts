import { COMMIT_LOG_PROBE, hashNames, mentionedHashes, parseCommitLog, readProbe } from '../probes';
import { check, flagOption, verdict } from '../result';
import type { Scorer } from '../types';

/**
 * The commit that broke the build, found by bisecting. `expected` is its subject; its hash is
 * looked up in the attempt's repository. The answer passes when it mentions the subject (case
 * ignored) or a hash-like token that is a prefix of the target's hash. With `exclusive: true` (our
 * addition) it fails when it also names another commit of the log, by hash or by subject, so a hedge
 * that lists the culprit among other candidates is not a hit.
 */
export const bisectRegressionScorer: Scorer = {
  type: 'bisect_regression',
  readsRepositoryOnly: true,
  plan: () => ({ answerCommands: [], probes: [COMMIT_LOG_PROBE] }),
  score({ fixture, output, evidence }) {
    const probe = readProbe(evidence, COMMIT_LOG_PROBE.id, 'target commit');
    if (!probe.ok) return verdict(false, 0, [probe.problem]);
    const log = parseCommitLog(probe.record.stdout);
    const targets = log.filter((commit) => commit.subject === fixture.expected).map((commit) => commit.hash);
    if (targets.length === 0) {
      return verdict(false, 0, [
        check('target commit', false, `no commit with subject ${JSON.stringify(fixture.expected)} in the repository`),
      ]);
    }
    const hashes = mentionedHashes(output);
    const byHash = hashes.find((h) => targets.some((target) => hashNames(target, h)));
    const lower = output.toLowerCase();
    const bySubject = lower.includes(fixture.expected.toLowerCase());
    const found = byHash !== undefined || bySubject;
    const checks = [
      check('target commit', true, `${JSON.stringify(fixture.expected)} is ${targets.join(', ')}`),
      check(
        'names the bad commit',
        found,
        byHash
          ? `answer mentions ${byHash}`
          : bySubject
            ? 'answer mentions the subject'
            : `answer mentions neither the subject nor a prefix of ${targets.join(', ')}`,
        fixture.expected,
        hashes.join(' '),
      ),
    ];
    const exclusive = flagOption(fixture, 'exclusive');
    if (exclusive) {
      // Another commit named by hash, or by a subject that is not just part of the target's subject.
      const others = log.filter(
        (commit) =>
          !targets.includes(commit.hash) &&
          (hashes.some((h) => hashNames(commit.hash, h)) ||
            (!fixture.expected.toLowerCase().includes(commit.subject.toLowerCase()) &&
              lower.includes(commit.subject.toLowerCase()))),
      );
      const names = [...new Set(others.map((commit) => `${commit.shortHash} ${commit.subject}`))];
      checks.push(
        check(
          'no other commit named',
          names.length === 0,
          names.length === 0 ? 'only the bad commit is named' : `answer also names ${names.join('; ')}`,
        ),
      );
      if (names.length > 0) return verdict(false, 0, checks);
    }
    return verdict(found, found ? 1 : 0, checks);
  },
};
