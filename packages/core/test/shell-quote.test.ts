import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellArg, shellQuote } from '../src/shell-quote';

// The one quoting module builds every command that runs in a sandbox (set-up steps, state assertions,
// graders, the sandbox's batch script): each quoted word, read back by bash and by sh, must be the word itself.
const HOSTILE = [
  `it's "quoted" $HOME \`id\` \\ \\' '' ; $(echo no) \n end`,
  '',
  "'",
  "''",
  '\\',
  '$',
  '!x',
  '-n',
  'a b',
  'é\t',
];
const words = [
  ...HOSTILE,
  ...fc.sample(fc.string({ unit: fc.constantFrom("'", '"', '\\', '$', '`', ' ', '\n', 'a', '*', '!', '#', 'é') }), {
    seed: 30,
    numRuns: 200,
  }),
];

describe('shell quoting, read back by the shells', () => {
  for (const [name, quote] of [
    ['shellQuote', shellQuote],
    ['shellArg', shellArg],
  ] as const) {
    it(`${name}: every word comes back unchanged from bash and sh`, () => {
      // One printf per word, each word's bytes ended by a NUL: one shell process for all of them.
      const script = words.map((w) => `printf '%s\\0' ${quote(w)}`).join('\n');
      for (const shell of ['bash', 'sh']) {
        const run = spawnSync(shell, ['-c', script], { encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout.split('\0').slice(0, -1), shell).toEqual(words);
      }
    });
  }
});
