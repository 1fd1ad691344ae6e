import { sequenceRatio } from '../difflib';
import { pyStrip } from '../python-text';
import { check, verdict } from '../result';
import type { ScoreCheck } from '../types';
import type { Scorer } from '../types';

/** `key: value` lines, split at the first colon; a later line with the same key wins. */
function fields(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const line of pyStrip(text).split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = pyStrip(line.slice(0, colon));
    if (key) result.set(key, pyStrip(line.slice(colon + 1)));
  }
  return result;
}

interface FieldRule {
  type: string;
  threshold: number;
}

function fieldRule(config: unknown, name: string): FieldRule {
  const rule = config && typeof config === 'object' ? (config as Record<string, unknown>)[name] : undefined;
  const r = rule && typeof rule === 'object' ? (rule as Record<string, unknown>) : {};
  return {
    type: typeof r.type === 'string' ? r.type : 'similarity',
    threshold: typeof r.threshold === 'number' ? r.threshold : 0.5,
  };
}

/**
 * Per-field scoring of `key: value` answers against the expected `key: value` lines. Only fields
 * declared `exact_match` in `scoring.fields` decide pass or fail (trimmed equality); similarity
 * fields (the default, threshold 0.5) only shape the score, which is the mean field score.
 * When neither side has any field, the whole answer is compared by similarity at 0.5.
 */
export const structuredScorer: Scorer = {
  type: 'structured',
  plan: () => null,
  score({ fixture, output }) {
    const actual = fields(output);
    const expected = fields(fixture.expected);
    if (actual.size === 0 && expected.size === 0) {
      const ratio = sequenceRatio(output, fixture.expected);
      return verdict(ratio >= 0.5, ratio, [
        check(
          'similarity (no fields on either side)',
          ratio >= 0.5,
          `ratio ${ratio.toFixed(4)}, threshold 0.5`,
          fixture.expected,
          output,
        ),
      ]);
    }
    const checks: ScoreCheck[] = [];
    let allExact = true;
    let total = 0;
    for (const [name, want] of expected) {
      const rule = fieldRule(fixture.scoring.fields, name);
      const got = actual.get(name) ?? '';
      if (rule.type === 'exact_match') {
        const ok = pyStrip(got) === pyStrip(want);
        if (!ok) allExact = false;
        total += ok ? 1 : 0;
        checks.push(
          check(`field ${name}`, ok, ok ? 'exact match' : actual.has(name) ? 'differs (exact)' : 'missing', want, got),
        );
      } else {
        const ratio = sequenceRatio(got, want);
        total += ratio;
        checks.push(
          check(
            `field ${name}`,
            ratio >= rule.threshold,
            `similarity ${ratio.toFixed(4)}, threshold ${rule.threshold} (does not decide pass)`,
            want,
            got,
          ),
        );
      }
    }
    return verdict(allExact, expected.size > 0 ? total / expected.size : 0, checks);
  },
};
