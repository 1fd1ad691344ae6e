/** Any placeholder origin works: only whether the resolved URL stays on it matters. */
const HERE = 'http://gitbench.invalid';

/**
 * Where to go after signing in: a path of this app only, never another site.
 *
 * A prefix check is not enough: browsers drop tabs and newlines inside URLs and read `\` as `/`, so
 * `/\t/evil.example` or `/\n/evil.example` leave the site, and Next's redirect fails with a 500 on a
 * newline or a character outside ASCII in a Location header. So the value is refused when it holds any
 * control character or whitespace, resolved as the browser would against an origin, kept only when it
 * stays on that origin, and returned in its serialized (percent-encoded, ASCII) form.
 */
export function safeNextPath(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (!value || !value.startsWith('/') || value.length > 2048) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/.test(value))
    return '/';
  let url: URL;
  try {
    url = new URL(value, HERE);
  } catch {
    return '/';
  }
  if (url.origin !== HERE) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path that starts `//` is read as another host when it is used as a relative URL.
  return path.startsWith('//') ? '/' : path;
}
