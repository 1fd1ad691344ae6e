/**
 * Python's `shlex.split(line)` (POSIX mode, no comments). Upstream compares commands as these
 * token lists and rejects an answer line they cannot parse, so the same quoting rules and the same
 * two errors are reproduced here rather than a real shell's grammar.
 */

export class ShellWordsError extends Error {}

const WHITESPACE = ' \t\r\n';
const QUOTES = `'"`;

export function shellWords(line: string): string[] {
  const words: string[] = [];
  let token = '';
  let quoted = false;
  // ' ' between words, 'a' inside a word, a quote character inside quotes, '\\' after an escape.
  let state = ' ';
  let escapedState = 'a';

  const emit = () => {
    words.push(token);
    token = '';
    quoted = false;
  };

  for (const ch of line) {
    if (state === ' ') {
      if (WHITESPACE.includes(ch)) continue;
      if (ch === '\\') {
        escapedState = 'a';
        state = '\\';
      } else if (QUOTES.includes(ch)) {
        state = ch;
      } else {
        token = ch;
        state = 'a';
      }
    } else if (state === "'" || state === '"') {
      quoted = true;
      if (ch === state) {
        state = 'a';
      } else if (ch === '\\' && state === '"') {
        escapedState = state;
        state = '\\';
      } else {
        token += ch;
      }
    } else if (state === '\\') {
      // Inside double quotes only the quote itself and the backslash can be escaped.
      if (QUOTES.includes(escapedState) && ch !== '\\' && ch !== escapedState) token += '\\';
      token += ch;
      state = escapedState;
    } else {
      if (WHITESPACE.includes(ch)) {
        state = ' ';
        if (token || quoted) emit();
      } else if (QUOTES.includes(ch)) {
        state = ch;
      } else if (ch === '\\') {
        escapedState = 'a';
        state = '\\';
      } else {
        token += ch;
      }
    }
  }
  if (state === "'" || state === '"') throw new ShellWordsError('No closing quotation');
  if (state === '\\') throw new ShellWordsError('No escaped character');
  if (token || quoted) emit();
  return words;
}
