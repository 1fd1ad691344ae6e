import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractCommands, getScorer } from '../../src/scoring';
import { ShellWordsError, shellWords } from '../../src/scoring/shell-words';
import { UPSTREAM_ROOT } from '../fixtures/upstream-data';
import { fixture } from './fixture-factory';

/**
 * Our text scorers against upstream GitBench's own Python functions on generated inputs: shlex.split,
 * normalize_command_answer (how every command answer is read) and Scorer.score for the scorers that
 * read text only. Inputs are drawn by fast-check with a fixed seed from alphabets dense in what the
 * rules treat specially (quotes, backslashes, fences, line breaks, Python's extra whitespace), sent
 * to python3 in one batch, and every disagreement is listed, shortest first.
 */

const PYTHON = '/usr/bin/python3';
const HARNESS = join(UPSTREAM_ROOT, 'harness');
const BRIDGE = join(import.meta.dirname, 'upstream_text_scorers.py');
if (!existsSync(PYTHON))
  throw new Error(
    `${PYTHON} is missing: these tests run upstream's scorer with it (apt-get install python3 python3-yaml)`,
  );

const SEED = 30;
const RUNS = 1500;

type Words = { words: unknown } | { error: string };
interface ScoreCase {
  scoring: Record<string, unknown>;
  expected: string;
  output: string;
}

function upstream(request: { shlex?: string[]; answers?: string[]; scores?: ScoreCase[] }): {
  shlex: Words[];
  answers: Words[];
  scores: { passed: boolean; similarity: number }[];
} {
  const run = spawnSync(PYTHON, [BRIDGE, HARNESS], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`upstream's functions failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ReturnType<typeof upstream>;
}

/** The inputs on which ours and upstream's differ, shortest first, as one readable list. */
function disagreements<T>(
  inputs: T[],
  ours: (input: T, i: number) => unknown,
  theirs: (i: number) => unknown,
): string[] {
  return inputs
    .map((input, i) => ({ input, ours: ours(input, i), theirs: theirs(i) }))
    .filter((c) => JSON.stringify(c.ours) !== JSON.stringify(c.theirs))
    .sort((a, b) => JSON.stringify(a.input).length - JSON.stringify(b.input).length)
    .slice(0, 5)
    .map((c) => `${JSON.stringify(c.input)}: ours ${JSON.stringify(c.ours)}, upstream ${JSON.stringify(c.theirs)}`);
}

const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed: SEED, numRuns: RUNS });
const textOf = (chars: string[], maxLength: number) =>
  fc.array(fc.constantFrom(...chars), { maxLength }).map((a) => a.join(''));

// Characters shlex treats specially, and the whitespace Python's strip and splitlines know beyond ASCII.
const SHELL_CHARS = [
  ' ',
  ' ',
  '\t',
  'a',
  'b',
  'git',
  '-m',
  '"',
  '"',
  "'",
  "'",
  '\\',
  '\\',
  '$',
  '#',
  '=',
  '*',
  'é',
  '\u00a0',
  '\x0b',
  '\x1c',
];
const LINE_BREAKS = ['\n', '\n', '\r\n', '\r', '\u2028', '\x85', '\x0c'];
const inQuotes = textOf(['a', ' ', '\\', '\\', '"', "'", '$', '`', 'é', '\n'], 5);
/** Mostly lines that parse: words of plain characters, closed quotes holding backslashes, escapes. */
const wordPiece = fc.oneof(
  textOf(['a', 'b', '-', '=', '*', '#', '$', 'é'], 3),
  inQuotes.map((t) => `"${t.replaceAll('"', '\\"')}"`),
  inQuotes.map((t) => `'${t.replaceAll("'", '')}'`),
  fc.constantFrom('\\\\', '\\"', "\\'", '\\ ', '\\a', '\\$', '\\\n'),
);
const shellLine = fc.oneof(
  textOf(SHELL_CHARS, 14),
  fc
    .array(
      fc.array(wordPiece, { minLength: 1, maxLength: 3 }).map((w) => w.join('')),
      { maxLength: 4 },
    )
    .map((words) => words.join(' ')),
);

/** An answer: command lines, maybe wrapped in a fence of some shape, maybe with prose. */
const answer = fc
  .tuple(
    fc.array(fc.oneof(shellLine, fc.constantFrom('git status', 'git clean -fd', "git commit -m 'a b'", '')), {
      minLength: 0,
      maxLength: 4,
    }),
    fc.constantFrom(...LINE_BREAKS),
    fc.constantFrom('', '```', '```bash', '``` bash', '```sh  ', '```not a tag', '```\t'),
    fc.constantFrom('', '```', '``` ', '  ```', '```\n```'),
    fc.constantFrom('', 'Run this:\n', '  ', '\n\n'),
  )
  .map(
    ([lines, br, open, close, before]) =>
      `${before}${open ? `${open}${br}` : ''}${lines.join(br)}${close ? `${br}${close}` : ''}`,
  );

const oursWords = (line: string): Words => {
  try {
    return { words: shellWords(line) };
  } catch (e) {
    if (e instanceof ShellWordsError) return { error: e.message };
    throw e;
  }
};

describe('our text rules agree with upstream on generated inputs', () => {
  it('shellWords is shlex.split: words and the two errors', () => {
    const lines = [...sample(shellLine), ...sample(fc.string({ maxLength: 12 }))];
    const theirs = upstream({ shlex: lines }).shlex;
    expect(disagreements(lines, oursWords, (i) => theirs[i])).toEqual([]);
  });

  it('an answer is read into the same command lines, or refused alike', () => {
    const answers = sample(answer);
    const theirs = upstream({ answers }).answers;
    const ours = (text: string) => {
      const e = extractCommands(text);
      return e.ok ? { words: e.commands } : 'refused';
    };
    expect(disagreements(answers, ours, (i) => ('error' in theirs[i]! ? 'refused' : theirs[i]))).toEqual([]);
  });

  it(
    'refuses, as upstream does, the fences these properties found ' +
      'read otherwise: \\r\\n, a space before the tag, an indented close',
    () => {
      const found = [
        '```bash\r\ngit status\r\n```',
        '``` bash\ngit status\n```',
        '```sh\ngit status\n  ```',
        '```\u2028git status\u2028```',
        '```\ngit status\n```  x',
      ];
      const theirs = upstream({ answers: found }).answers;
      expect(theirs.every((t) => 'error' in t)).toBe(true);
      for (const text of found) expect(extractCommands(text), JSON.stringify(text)).toMatchObject({ ok: false });
      // And still reads the fences upstream reads.
      expect(extractCommands('```sh \t\ngit status\n\ngit add -A\n```')).toEqual({
        ok: true,
        commands: ['git status', 'git add -A'],
        fenced: true,
      });
    },
  );

  it('command_equivalence passes the same answers: exact, requoted, fenced, a prefix, reordered, one line more', () => {
    const commands = [
      'git status',
      'git add -A',
      "git commit -m 'fix typo'",
      'git clean -fd',
      'git stash pop',
      'git tag -a v1 -m "v 1"',
    ];
    // The same words spelled otherwise, which upstream's token comparison accepts.
    const requote = (line: string) =>
      line.replace("'fix typo'", '"fix typo"').replace('"v 1"', 'v\\ 1').replace(' -A', "  '-A'");
    const cases = sample(
      fc
        .tuple(
          fc.array(fc.array(fc.constantFrom(...commands), { minLength: 1, maxLength: 3 }), {
            minLength: 1,
            maxLength: 2,
          }),
          fc.constantFrom(
            'same',
            'requoted',
            'fenced',
            'prefix',
            'suffix',
            'reversed',
            'extra',
            'joined',
            'blank lines',
          ),
          fc.boolean(),
        )
        .map(([accepted, how, asList]): ScoreCase => {
          const lines = accepted[0]!;
          const output = {
            same: lines.join('\n'),
            requoted: lines.map(requote).join('\n'),
            fenced: `\`\`\`bash\n${lines.join('\n')}\n\`\`\``,
            prefix: lines.slice(0, -1).join('\n') || lines[0]!,
            suffix: lines.slice(1).join('\n') || lines[0]!,
            reversed: [...lines].reverse().join('\n'),
            extra: [...lines, 'git status'].join('\n'),
            joined: lines.join(' && '),
            'blank lines': `\n  ${lines.join('\n\n')}  \n`,
          }[how];
          return {
            scoring: { type: 'command_equivalence', accepted: accepted.map((a) => (asList ? a : a.join('\n'))) },
            expected: '',
            output,
          };
        }),
    );
    const theirs = upstream({ scores: cases }).scores;
    const ours = (c: ScoreCase) =>
      getScorer('command_equivalence').score({ fixture: fixture(c.scoring as never, c.expected), output: c.output })
        .passed;
    expect(disagreements(cases, ours, (i) => theirs[i]!.passed)).toEqual([]);
    // The property holds both ways: some generated answers pass, some fail.
    expect(new Set(theirs.map((t) => t.passed))).toEqual(new Set([true, false]));
  });

  it('exact_match, unordered_line_set and numeric_exact pass the same answers with the same score', () => {
    const noisy = fc.tuple(
      textOf(['a', 'b', '1', '-2', '3.5', ' ', '\t', '\n', '\r\n', '\x1c', '\u00a0', '```', 'x'], 10),
      textOf(['', ' ', '\n', '```\n', '```sh\n'], 2),
    );
    const cases = sample(
      fc
        .tuple(
          noisy,
          noisy,
          fc.constantFrom('exact_match', 'unordered_line_set', 'numeric_exact'),
          fc.boolean(),
          fc.constantFrom('own', 'expected', 'wrapped'),
        )
        .map(([[expected], [text, pad], type, flag, how]): ScoreCase => {
          const option = {
            exact_match: 'strip_fences',
            unordered_line_set: 'allow_extra',
            numeric_exact: 'allow_prose',
          }[type];
          const output =
            how === 'own'
              ? text
              : how === 'expected'
                ? `${pad}${expected}${pad.trim() === '' ? pad : '\n```'}`
                : `${pad}${expected}\n${text}`;
          return { scoring: { type, [option]: flag }, expected, output };
        }),
    );
    const theirs = upstream({ scores: cases }).scores;
    const ours = (c: ScoreCase) => {
      const r = getScorer(c.scoring['type'] as string).score({
        fixture: fixture(c.scoring as never, c.expected),
        output: c.output,
      });
      return { passed: r.passed, similarity: Math.round(r.score * 10_000) / 10_000 };
    };
    expect(disagreements(cases, ours, (i) => theirs[i])).toEqual([]);
  });
});
