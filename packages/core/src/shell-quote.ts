/**
 * Shell quoting, written once. Scripts built from these words are hashed into build keys and input
 * hashes, so each function's output is fixed: changing it changes every identity hash.
 */

/** Quote for POSIX shells: the only character a single-quoted string cannot hold is `'` itself. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One word for /bin/sh, left bare when no character in it is special to the shell, else single-quoted. */
export function shellArg(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return shellQuote(word);
}
