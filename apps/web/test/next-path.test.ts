import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { safeNextPath } from '../lib/auth/next-path';

/** What off-site redirects are made of, mixed with arbitrary text. */
const PIECES = [
  '/',
  '//',
  '\\',
  '\t',
  '\n',
  '\r',
  ' ',
  '%09',
  '%2F',
  '.',
  '..',
  ':',
  '@',
  '?',
  '#',
  'é',
  '\u2028',
  '\u3000',
  'evil.example',
  'https:',
];

describe('safeNextPath', () => {
  it("keeps the app's own paths with their query", () => {
    expect(safeNextPath('/campaigns/cmp_1?page=2#top')).toBe('/campaigns/cmp_1?page=2#top');
    expect(safeNextPath(['/models', '/x'])).toBe('/models');
    expect(safeNextPath(undefined)).toBe('/');
  });

  it('refuses everything a browser would take off-site', () => {
    for (const bad of [
      '//evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      '/ /evil.example',
      '/\\evil.example',
      '/\u00a0/evil.example',
      'https://evil.example/',
      'evil.example',
      '/\u0000',
    ]) {
      expect(safeNextPath(bad), JSON.stringify(bad)).toBe('/');
    }
  });

  it('returns ASCII only, so a redirect never fails on its Location header', () => {
    expect(safeNextPath('/campaigns/é')).toBe('/campaigns/%C3%A9');
  });

  it("whatever it is given, the result resolves to the same origin in a browser's URL parser, and is ASCII", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string())).map((parts) => parts.join('')),
        (s) => {
          const out = safeNextPath(`/${s}`);
          return (
            out.startsWith('/') &&
            !out.startsWith('//') &&
            new URL(out, 'https://app.example').origin === 'https://app.example' &&
            /^[\x21-\x7e]+$/.test(out)
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
