import type { Fixture } from '../../fixtures/types';
import { LINE_SET_DOMAINS } from '../domain-rules';
import { stripWrappingFence } from '../extract-commands';
import { pyStrip } from '../python-text';
import { check, clip, configError, flagOption, listForDisplay, numberOption, verdict } from '../result';
import type { ScoreResult, Scorer } from '../types';

/**
 * Whole answer equals the expected answer after trimming whitespace at both ends.
 * `strip_fences: true` first removes one code fence wrapping the whole answer.
 *
 * Branch clean-up is the exception, as upstream's branch_cleanup benchmark scores its exact_match
 * fixtures: the answer is a set of branch names, one per line (split on "\n", each line trimmed,
 * blanks dropped), and it passes when no expected name is missing, none is extra (unless
 * `allow_extra`), and the share of expected names found reaches `threshold` (default 1.0).
 */

function lineSet(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((line) => pyStrip(line))
      .filter((line) => line.length > 0),
  );
}

function scoreLineSet(fixture: Fixture, output: string): ScoreResult {
  const threshold = numberOption(fixture, 'threshold', 1.0);
  if (!threshold.ok) return configError(fixture, threshold.error);
  const expected = lineSet(fixture.expected);
  const actual = lineSet(output);
  const missing = [...expected].filter((line) => !actual.has(line)).sort();
  const extra = [...actual].filter((line) => !expected.has(line)).sort();
  const found = expected.size - missing.length;
  const share = expected.size > 0 ? found / expected.size : 0;
  const allowExtra = flagOption(fixture, 'allow_extra');
  const passed = share >= threshold.value && missing.length === 0 && (allowExtra || extra.length === 0);
  return verdict(passed, share, [
    check(
      'expected lines present',
      missing.length === 0,
      missing.length === 0 ? `all ${expected.size} expected lines present` : `missing ${listForDisplay(missing)}`,
      [...expected].join('\n'),
    ),
    check(
      'no extra lines',
      allowExtra || extra.length === 0,
      extra.length === 0 ? 'no extra lines' : `extra ${listForDisplay(extra)}${allowExtra ? ' (allowed)' : ''}`,
      undefined,
      [...actual].join('\n'),
    ),
    check(
      'share of expected lines',
      share >= threshold.value,
      `${found}/${expected.size} found, threshold ${threshold.value}`,
    ),
  ]);
}

export const exactMatchScorer: Scorer = {
  type: 'exact_match',
  plan: () => null,
  score({ fixture, output }) {
    if (LINE_SET_DOMAINS.includes(fixture.domain)) return scoreLineSet(fixture, output);
    const compared = flagOption(fixture, 'strip_fences') ? (stripWrappingFence(output) ?? output) : output;
    const actual = pyStrip(compared);
    const expected = pyStrip(fixture.expected);
    const passed = actual === expected;
    return verdict(passed, passed ? 1 : 0, [
      check(
        'exact match',
        passed,
        passed
          ? 'answer equals the expected answer (ends trimmed)'
          : `answer differs from the expected answer (${clip(actual, 60)})`,
        expected,
        actual,
      ),
    ]);
  },
};
