/**
 * JSON text that PostgreSQL's jsonb accepts. jsonb cannot hold U+0000 in a string ("unsupported
 * Unicode escape sequence"), and anything a model prints may contain one: its output reaches the
 * evidence and the trajectory. Refused, the write failed the attempt as the worker's error, and its
 * retries likewise, so a model could turn a failed attempt into an excluded infrastructure failure by
 * printing a NUL byte. Each U+0000 is stored as U+FFFD, the replacement character, instead; an escaped
 * backslash before `u0000` (the text `\u0000` itself) is left alone.
 */
export function jsonbText(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

/** The value with every U+0000 in its strings replaced as jsonbText does, for writes through Prisma's Json columns. */
export function jsonbSafe<T>(value: T): T {
  return JSON.parse(jsonbText(value)) as T;
}
