import type { GistEvidence } from '@gitbench/core';

/** A gist as an agent writes it, for the seeded gist attempt. */
const GIST_TEXT = `import re


class Pattern(object):

    def __eq__(self, other):
        return repr(self) == repr(other)

    def fix(self):
        """Fix elements."""
        self.fix_identities()
        return self


def parse_args(source):
    tokens = source.split()
    return tokens


def helper_not_in_original(x):
    return x * 2


def test_parse():
    assert parse_args('a b') == ['a', 'b']
`;

type Unit = NonNullable<NonNullable<GistEvidence['gist']>['units']>[number];
/** One unit of a gist as the evaluator lists it. */
export const gistUnit = (from: number, to: number, block: string, text: string, kind: Unit['kind'] = 'code'): Unit => ({
  lines: [from, to],
  block,
  kind,
  texts: [text],
});

/**
 * The gist evaluator's facts for GIST_TEXT: ran, same outcome as the original; some lines not run, some not in the
 * original.
 */
export const SEED_GIST_EVIDENCE: GistEvidence = {
  version: 1,
  original: {
    ran: true,
    exit: 0,
    collected: 1,
    reports: [{ test: 'test_docopt.py::test_parse', when: 'call', outcome: 'passed' }],
  },
  gist: {
    path: 'gist.py',
    exists: true,
    bytes: GIST_TEXT.length,
    text: GIST_TEXT,
    units: [
      gistUnit(1, 1, '', 'import re'),
      gistUnit(4, 4, '', 'class Pattern(object):'),
      gistUnit(6, 6, 'Pattern', 'def __eq__(self, other):'),
      gistUnit(7, 7, 'Pattern.__eq__', 'return repr(self) == repr(other)'),
      gistUnit(9, 9, 'Pattern', 'def fix(self):'),
      gistUnit(10, 10, 'Pattern.fix', '"""Fix elements."""', 'nonexec'),
      gistUnit(11, 11, 'Pattern.fix', 'self.fix_identities()'),
      gistUnit(12, 12, 'Pattern.fix', 'return self'),
      gistUnit(15, 15, '', 'def parse_args(source):'),
      gistUnit(16, 16, 'parse_args', 'tokens = source.split()'),
      gistUnit(17, 17, 'parse_args', 'return tokens'),
      gistUnit(20, 20, '', 'def helper_not_in_original(x):'),
      gistUnit(21, 21, 'helper_not_in_original', 'return x * 2'),
      gistUnit(24, 24, '', 'def test_parse():'),
      gistUnit(25, 25, 'test_parse', "assert parse_args('a b') == ['a', 'b']"),
    ],
    testsFound: ['test_parse'],
    testsMissing: [],
  },
  candidates: {
    Pattern: [{ file: 'docopt.py', found: ['def __eq__(self, other):', 'def fix(self):'] }],
    'Pattern.__eq__': [{ file: 'docopt.py', found: ['return repr(self) == repr(other)'] }],
    'Pattern.fix': [{ file: 'docopt.py', found: ['"""Fix elements."""', 'self.fix_identities()', 'return self'] }],
    parse_args: [{ file: 'docopt.py', found: ['tokens = source.split()'] }],
    test_parse: [{ file: 'test_docopt.py', found: ["assert parse_args('a b') == ['a', 'b']"] }],
  },
  topLevelFound: ['import re', 'class Pattern(object):', 'def parse_args(source):', 'def test_parse():'],
  run: {
    ran: true,
    exit: 0,
    collected: 1,
    reports: [{ test: 'gist.py::test_parse', when: 'call', outcome: 'passed' }],
  },
  fidelity: { ok: true, detail: 'the gist gives the original outcome (1 passed) and output' },
  execution: { units: null, executed: [1, 4, 6, 9, 15, 16, 17, 20, 24, 25] },
};
