import { extractCommands } from '../extract-commands';
import { pySplitlines, pyStrip } from '../python-text';
import { check, configError, listForDisplay, verdict } from '../result';
import { ShellWordsError, shellWords } from '../shell-words';
import type { Scorer } from '../types';

/**
 * The answer's commands, as shell-word lists, equal one of the fixture's `accepted` alternatives
 * (each a command string, possibly multi-line, or a list of command lines). This is all upstream
 * normalises: surrounding and repeated whitespace, quoting style (`'a b'` = `"a b"` = `a\ b`),
 * blank lines and one whole-answer fence. Flag order, combined short flags (`-fd` vs `-f -d`) and
 * long/short spellings are NOT made equal; a fixture lists each spelling it accepts.
 */

type Sequence = string[][];

function toSequence(text: string): Sequence {
  const lines = pySplitlines(text)
    .map((line) => pyStrip(line))
    .filter((line) => line.length > 0);
  if (lines.length === 0) throw new ShellWordsError('no command lines found');
  return lines.map((line) => shellWords(line));
}

function sameSequence(a: Sequence, b: Sequence): boolean {
  return (
    a.length === b.length &&
    a.every((words, i) => {
      const other = b[i] as string[];
      return words.length === other.length && words.every((word, k) => word === other[k]);
    })
  );
}

const display = (sequence: Sequence) => sequence.map((words) => words.join(' ')).join(' && ');

export const commandEquivalenceScorer: Scorer = {
  type: 'command_equivalence',
  plan: () => null,
  score({ fixture, output }) {
    const accepted = fixture.scoring.accepted;
    if (!Array.isArray(accepted)) return configError(fixture, 'command_equivalence needs scoring.accepted, a list');
    const alternatives: Sequence[] = [];
    for (const [index, alternative] of accepted.entries()) {
      let text: string;
      if (typeof alternative === 'string') text = alternative;
      else if (Array.isArray(alternative) && alternative.every((line) => typeof line === 'string'))
        text = alternative.join('\n');
      else
        return configError(fixture, `scoring.accepted[${index}] must be a command string or a list of command strings`);
      try {
        alternatives.push(toSequence(text));
      } catch (error) {
        if (!(error instanceof ShellWordsError)) throw error;
        return configError(fixture, `scoring.accepted[${index}] does not parse: ${error.message}`);
      }
    }
    if (alternatives.length === 0) return configError(fixture, 'scoring.accepted is empty');

    const extraction = extractCommands(output);
    if (!extraction.ok) {
      return verdict(false, 0, [
        check(
          'commands parse',
          false,
          `could not read commands from the answer: ${extraction.reason}`,
          undefined,
          output,
        ),
      ]);
    }
    const answer = extraction.commands.map((line) => shellWords(line));
    const match = alternatives.find((alternative) => sameSequence(answer, alternative));
    const expected = alternatives.map(display);
    return verdict(match !== undefined, match ? 1 : 0, [
      check(
        'commands parse',
        true,
        `${answer.length} command line(s)${extraction.fenced ? ' from one fenced block' : ''}`,
      ),
      check(
        'matches an accepted alternative',
        match !== undefined,
        match ? `matches: ${display(match)}` : `no accepted alternative matches; accepted ${listForDisplay(expected)}`,
        expected.join('\n'),
        display(answer),
      ),
    ]);
  },
};
