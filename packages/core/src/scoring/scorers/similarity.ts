import { sequenceRatio } from '../difflib';
import { check, configError, numberOption, verdict } from '../result';
import type { Scorer } from '../types';

/** difflib ratio of the raw answer against the expected answer; passes at `threshold` (default 0.5). */
export const similarityScorer: Scorer = {
  type: 'similarity',
  plan: () => null,
  score({ fixture, output }) {
    const threshold = numberOption(fixture, 'threshold', 0.5);
    if (!threshold.ok) return configError(fixture, threshold.error);
    const ratio = sequenceRatio(output, fixture.expected);
    const passed = ratio >= threshold.value;
    return verdict(passed, ratio, [
      check(
        'similarity',
        passed,
        `ratio ${ratio.toFixed(4)} ${passed ? '>=' : '<'} threshold ${threshold.value}`,
        fixture.expected,
        output,
      ),
    ]);
  },
};
