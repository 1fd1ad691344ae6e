import { PY_SPACE, pySplitlines, pyStrip } from '../python-text';
import { check, configError, flagOption, listForDisplay, numberOption, verdict } from '../result';
import type { Scorer } from '../types';

/**
 * Which commits to squash, named by subject. Expected subjects are one per line (an older
 * comma-separated single line is still read). The answer is one subject per line with optional
 * "- " / "* " bullets, or one comma-separated line. Comparison ignores case and surrounding
 * whitespace. A hash alone, or a hash in front of the subject ("785748f WIP: x"), does not name a
 * subject: upstream reads lines whole. Passes when the share found reaches `threshold` (default
 * 1.0) and nothing else is selected (unless `allow_extra`). Decided on the text alone.
 */

const BULLET = new RegExp(`^${PY_SPACE}*[-*]${PY_SPACE}+`, 'u');

function expectedSubjects(expected: string): string[] {
  const lines = pySplitlines(expected)
    .map((line) => pyStrip(line))
    .filter((line) => line.length > 0);
  if (lines.length > 1) return lines;
  if (lines.length === 1 && !(lines[0] as string).includes(',')) return lines;
  return expected
    .split(',')
    .map((item) => pyStrip(item))
    .filter((item) => item.length > 0);
}

function selectedSubjects(output: string): string[] {
  const lines = pySplitlines(output)
    .filter((line) => pyStrip(line).length > 0)
    .map((line) => pyStrip(pyStrip(line).replace(BULLET, '')));
  if (lines.length === 1 && (lines[0] as string).includes(',')) {
    return (lines[0] as string)
      .split(',')
      .map((item) => pyStrip(item))
      .filter((item) => item.length > 0);
  }
  return lines;
}

const key = (subject: string) => pyStrip(subject).toLowerCase();

export const commitSelectionScorer: Scorer = {
  type: 'commit_selection',
  plan: () => null,
  score({ fixture, output }) {
    const threshold = numberOption(fixture, 'threshold', 1.0);
    if (!threshold.ok) return configError(fixture, threshold.error);
    const expected = expectedSubjects(fixture.expected);
    if (expected.length === 0) return configError(fixture, 'expected names no commit subjects');
    const selected = selectedSubjects(output);
    const selectedKeys = new Set(selected.map(key));
    const expectedKeys = new Set(expected.map(key));
    const missing = expected.filter((subject) => !selectedKeys.has(key(subject)));
    const extra = selected.filter((subject) => !expectedKeys.has(key(subject)));
    const share = (expected.length - missing.length) / expected.length;
    const allowExtra = flagOption(fixture, 'allow_extra');
    const passed = share >= threshold.value && (allowExtra || extra.length === 0);
    return verdict(passed, share, [
      check(
        'expected commits selected',
        share >= threshold.value,
        missing.length === 0
          ? `all ${expected.length} expected commits selected`
          : `missing ${listForDisplay(missing)} (threshold ${threshold.value})`,
        expected.join('\n'),
      ),
      check(
        'no other commits selected',
        allowExtra || extra.length === 0,
        extra.length === 0
          ? 'nothing else selected'
          : `also selected ${listForDisplay(extra)}${allowExtra ? ' (allowed)' : ''}`,
        undefined,
        selected.join('\n'),
      ),
    ]);
  },
};
