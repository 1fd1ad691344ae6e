import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS_MARK,
  getScorer,
  refNamesOf,
  repoChecksConfig,
  type Fixture,
  type RepoCheck,
  type ScoringConfig,
} from '../../src';
import { exec, fixture } from '../scoring/fixture-factory';

const ID = 'c'.repeat(40);

const task = (checks: unknown[]): Fixture =>
  fixture({ type: 'repo_checks', checks } as ScoringConfig, 'true', 'history-surgery');

/** The checks as the scorer reads them (defaults filled in). */
function checksOf(checks: unknown[]): RepoCheck[] {
  const parsed = repoChecksConfig(task(checks));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config.checks;
}

describe('the branch and tag names a check gives', () => {
  it('are the ref names in its revisions, each side of a range, without suffixes; HEAD and ids are left out', () => {
    const names = checksOf([
      { type: 'tree_equals', rev: 'main~26', tree: ID },
      { type: 'commit_count', range: `${ID}..main`, equals: 3 },
      { type: 'linear_onto', branch: '1.2.x', onto: ID },
      { type: 'note', rev: 'v7.0.0^{commit}', text: 't' },
      { type: 'commits_preserved', range: 'origin/main...topic@{1}', messages: ['m'] },
      { type: 'file_at', rev: 'HEAD:calc.py', path: 'calc.py', contains: 'x' },
      { type: 'ref_equals', ref: 'refs/heads/main', commit: ID },
      { type: 'tag_message', tag: 'v1', message: 'm' },
    ]).map(refNamesOf);
    expect(names).toEqual([
      ['main'],
      ['main'],
      ['1.2.x'],
      ['v7.0.0'],
      ['origin/main', 'topic'],
      [],
      ['refs/heads/main'],
      [],
    ]);
  });

  it('are checked before the look-up of a check that gives them, and only there', () => {
    const plan = getScorer('repo_checks').plan(
      task([
        { type: 'note', rev: 'main', text: 't' },
        { type: 'tag_message', tag: 'v1', message: 'm' },
      ]),
      'true',
    )!;
    const [note, tag] = ['check.1', 'check.2'].map((id) => plan.probes.find((p) => p.id === id)!.command);
    expect(note!.split('\n')[0]).toBe("for n in 'main'; do");
    expect(note).toContain(`printf '${AMBIGUOUS_MARK}%s %s\\n'`);
    expect(note).toContain('git notes --ref=');
    expect(tag).not.toContain(AMBIGUOUS_MARK);
  });

  it('fail the check when one reads as another ref than the branch or tag of that name, whatever the rest says', () => {
    const fixture = task([
      { type: 'note', rev: 'main', text: 'redacted' },
      { type: 'tree_equals', rev: 'main', tree: ID },
    ]);
    const result = getScorer('repo_checks').score({
      fixture,
      output: 'true',
      evidence: {
        answer: [],
        probes: {
          'check.1': exec('check.1', `${AMBIGUOUS_MARK}main ?\n`),
          'check.2': exec('check.2', `${ID}\n`),
        },
      },
    });
    expect(result.passed).toBe(false);
    expect(result.checks!.map((c) => [c.ok, c.detail])).toEqual([
      [false, 'main is ambiguous: it names more than one ref (a ref or a file of the same short name shadows it)'],
      [true, `the tree of main is ${ID.slice(0, 12)}`],
    ]);
  });
});
