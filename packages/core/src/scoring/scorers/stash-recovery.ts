import { PY_DIGIT, pyStrip } from '../python-text';
import { check, flagOption, verdict } from '../result';
import type { ScoreCheck, Scorer } from '../types';

const STASH_REF = new RegExp(`stash@\\{${PY_DIGIT}+\\}`, 'gu');

/**
 * The expected stash reference, e.g. `stash@{1}`, mentioned anywhere in the answer (so
 * `git stash apply stash@{1}` passes), or the whole trimmed answer equal to the expected value.
 * Similarity would be wrong here: stash@{0} and stash@{1} differ by one character.
 *
 * Upstream passes an answer that lists several stashes as long as one is right. `exclusive: true`
 * (our addition) fails an answer that also names another stash, so a hedge is not a hit.
 */
export const stashRecoveryScorer: Scorer = {
  type: 'stash_recovery',
  plan: () => null,
  score({ fixture, output }) {
    const expected = pyStrip(fixture.expected);
    const refs: string[] = output.match(STASH_REF) ?? [];
    const mentioned = refs.includes(expected);
    const whole = pyStrip(output) === expected;
    const others = [...new Set(refs.filter((ref) => ref !== expected))];
    const exclusive = flagOption(fixture, 'exclusive');
    const found = mentioned || whole;
    const passed = found && !(exclusive && others.length > 0);
    const checks: ScoreCheck[] = [
      check(
        'stash reference',
        found,
        found
          ? mentioned
            ? `answer mentions ${expected}`
            : 'answer equals the expected value'
          : refs.length > 0
            ? `answer mentions ${[...new Set(refs)].join(', ')}, not ${expected}`
            : 'answer mentions no stash reference',
        expected,
        refs.join(' '),
      ),
    ];
    if (exclusive) {
      checks.push(
        check(
          'no other stash named',
          others.length === 0,
          others.length === 0 ? 'only the expected stash is named' : `answer also names ${others.join(', ')}`,
        ),
      );
    }
    return verdict(passed, passed ? 1 : 0, checks);
  },
};
