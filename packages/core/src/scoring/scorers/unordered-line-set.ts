import { pySplitlines, pyStrip } from '../python-text';
import { check, flagOption, listForDisplay, verdict } from '../result';
import type { Scorer } from '../types';

function lines(text: string): Set<string> {
  return new Set(
    pySplitlines(text)
      .map((line) => pyStrip(line))
      .filter((line) => line.length > 0),
  );
}

/**
 * The answer's non-blank lines, trimmed, as a set: every expected line must be there and, unless
 * `allow_extra`, nothing else. Order and duplicates do not matter.
 */
export const unorderedLineSetScorer: Scorer = {
  type: 'unordered_line_set',
  plan: () => null,
  score({ fixture, output }) {
    const expected = lines(fixture.expected);
    const actual = lines(output);
    const allowExtra = flagOption(fixture, 'allow_extra');
    const missing = [...expected].filter((line) => !actual.has(line)).sort();
    const extra = [...actual].filter((line) => !expected.has(line)).sort();
    const passed = missing.length === 0 && (allowExtra || extra.length === 0);
    const share = expected.size > 0 ? (expected.size - missing.length) / expected.size : actual.size === 0 ? 1 : 0;
    return verdict(passed, share, [
      check(
        'expected lines present',
        missing.length === 0,
        missing.length === 0
          ? `all ${expected.size} expected lines present`
          : `missing lines ${listForDisplay(missing)}`,
        [...expected].join('\n'),
      ),
      check(
        'no extra lines',
        allowExtra || extra.length === 0,
        extra.length === 0 ? 'no extra lines' : `extra lines ${listForDisplay(extra)}${allowExtra ? ' (allowed)' : ''}`,
        undefined,
        [...actual].join('\n'),
      ),
    ]);
  },
};
