import { PyJsonError, parsePyJson } from '../python-json';
import { pyEqual, type PyValue } from '../python-value';
import { check, clip, configError, verdict } from '../result';
import type { Scorer } from '../types';

function parse(text: string): { ok: true; value: PyValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: parsePyJson(text) };
  } catch (error) {
    if (error instanceof PyJsonError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Parsed JSON values equal: key order and whitespace do not matter, list order does. */
export const jsonSemanticEqualScorer: Scorer = {
  type: 'json_semantic_equal',
  plan: () => null,
  score({ fixture, output }) {
    const expected = parse(fixture.expected);
    if (!expected.ok) return configError(fixture, `expected is not valid JSON: ${expected.error}`);
    const actual = parse(output);
    if (!actual.ok) {
      return verdict(false, 0, [
        check('valid JSON', false, `answer is not valid JSON: ${actual.error}`, undefined, output),
      ]);
    }
    const passed = pyEqual(actual.value, expected.value);
    return verdict(passed, passed ? 1 : 0, [
      check('valid JSON', true, 'answer parses as JSON'),
      check(
        'same value',
        passed,
        passed ? 'same JSON value' : `different JSON value: ${clip(output, 80)}`,
        fixture.expected,
        output,
      ),
    ]);
  },
};
