import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTaskText, gistScoringSchema, type Fixture } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { loadSuiteDir } from '../../src';

/**
 * What a gist agent is told matches what the scorer does (it puts the original test back, so every
 * name the test uses must be defined in the gist) and what the reference gists do (the only lines
 * of their own are glue binding a module name).
 */
const SUITE = join(import.meta.dirname, '../../../../fixtures/gists');
const gists: Fixture[] = (await loadSuiteDir(SUITE)).fixtures;

/** The reference gist: the heredoc the expected answer writes. */
function referenceGist(f: Fixture): string {
  const m = /<<'GITBENCH_GIST'\n([\s\S]*?)\nGITBENCH_GIST/.exec(f.expected);
  if (!m) throw new Error(`${f.domain}/${f.id}: no gist heredoc in expected`);
  return m[1]!;
}

/** Every line of the original's Python files, trimmed. */
function originalLines(f: Fixture): Set<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gist-original-'));
  execFileSync('tar', ['-xzf', join(SUITE, gistScoringSchema.parse(f.scoring).original), '-C', dir]);
  const lines = new Set<string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.py'))
      for (const l of readFileSync(join(e.parentPath, e.name), 'utf8').split('\n')) lines.add(l.trim());
  }
  return lines;
}

const GLUE = /^(import types|[A-Za-z_]\w* = types\.SimpleNamespace\([^()]*\))$/;

describe('gist agent prompts', () => {
  it(
    'say that the original test is put back, that every ' + 'name it uses must be defined, and that glue is allowed',
    () => {
      expect(gists.length).toBe(12);
      for (const f of gists) {
        const text = agentTaskText(f);
        expect(text, f.id).toContain(
          "the scorer puts the original test's text back in place of the file's own version of it",
        );
        expect(text, f.id).toContain(
          'every name that test uses (functions, classes, constants, fixtures, modules) must be defined in the file',
        );
        expect(text, f.id).toContain(
          '`mod = types.SimpleNamespace(name=name)`); glue is allowed, and counts as lines not found in the original',
        );
        // The single-answer prompt is left as it was (its hash is part of every stored result).
        expect(f.prompt, f.id).not.toContain('glue');
      }
    },
  );

  it('allow exactly the glue the references write: each reference line not in the original binds a module name', () => {
    let glue = 0;
    for (const f of gists) {
      const original = originalLines(f);
      const own = referenceGist(f)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#') && !original.has(l));
      for (const line of own) expect(line, `${f.domain}/${f.id}`).toMatch(GLUE);
      glue += own.length;
    }
    // inflection (2 × 2 lines), parse (2) and jmespath (5) bind module names this way.
    expect(glue).toBe(11);
  });
});
