import { describe, expect, it } from 'vitest';
import { SCORING_TYPES, getScorer, judgeVerdict, runScorer } from '../../src/scoring';
import { HOSTILE_OUTPUTS, fixture } from './fixture-factory';

const score = (type: string, output: string, expected: string, extra: Record<string, unknown> = {}, domain?: string) =>
  getScorer(type).score({ fixture: fixture({ type, ...extra }, expected, domain), output });

describe('exact_match', () => {
  it('passes on trimmed equality and fails on prose', () => {
    expect(score('exact_match', '  Refactor HTTP module \n', 'Refactor HTTP module').passed).toBe(true);
    const wrong = score('exact_match', 'The commit is:\nRefactor HTTP module', 'Refactor HTTP module');
    expect(wrong.passed).toBe(false);
    expect(wrong.checks[0]?.expected).toBe('Refactor HTTP module');
  });
  it('strips one wrapping fence only when strip_fences is set', () => {
    expect(score('exact_match', '```sh\ngit submodule status\n```', 'git submodule status').passed).toBe(false);
    expect(
      score('exact_match', '```sh\ngit submodule status\n```', 'git submodule status', { strip_fences: true }).passed,
    ).toBe(true);
    expect(score('exact_match', '```\nHello', 'Hello', { strip_fences: true }).passed).toBe(false);
    expect(score('exact_match', '```not a tag\nHello\n```', 'Hello', { strip_fences: true }).passed).toBe(false);
  });
  it('uses Python strip: \\x1c is whitespace, \\ufeff is not', () => {
    expect(score('exact_match', 'abc\x1c', 'abc').passed).toBe(true);
    expect(score('exact_match', '\ufeffabc', 'abc').passed).toBe(false);
  });
  it('scores branch clean-up as a line set: order free, extras and missing fail', () => {
    expect(score('exact_match', 'fix-b\n fix-a \n\n', 'fix-a\nfix-b', {}, 'branch_cleanup').passed).toBe(true);
    const extra = score('exact_match', 'fix-a\nfix-b\nfeature-active', 'fix-a\nfix-b', {}, 'branch_cleanup');
    expect(extra.passed).toBe(false);
    expect(extra.score).toBe(1);
    expect(
      score('exact_match', 'fix-a\nfix-b\nfeature-active', 'fix-a\nfix-b', { allow_extra: true }, 'branch_cleanup')
        .passed,
    ).toBe(true);
    const missing = score('exact_match', 'fix-a', 'fix-a\nfix-b', {}, 'branch_cleanup');
    expect(missing.passed).toBe(false);
    expect(missing.score).toBe(0.5);
    expect(score('exact_match', 'fix-a', 'fix-a\nfix-b', { threshold: 0.5 }, 'branch_cleanup').passed).toBe(false);
  });
});

describe('similarity', () => {
  it('passes at the threshold (default 0.5) and reports the ratio', () => {
    const near = score(
      'similarity',
      'fix: correct spelling error in file.py',
      'fix: correct spelling error in file.txt',
      { threshold: 0.7 },
    );
    expect(near.passed).toBe(true);
    expect(near.score).toBeGreaterThan(0.9);
    expect(score('similarity', 'totally unrelated', 'feat: add new feature', { threshold: 0.7 }).passed).toBe(false);
    expect(score('similarity', '', 'x').passed).toBe(false);
    expect(score('similarity', 'abcd', 'abcf').passed).toBe(true);
  });
  it('passes a ratio exactly at the threshold, as upstream (ratio >= threshold)', () => {
    // 'ac' against 'ab': one matching character of four, a ratio of exactly 0.5, the default threshold.
    expect(score('similarity', 'ac', 'ab')).toMatchObject({ passed: true, score: 0.5 });
    expect(score('similarity', 'abcd', 'abcd', { threshold: 1 }).passed).toBe(true);
    expect(score('similarity', 'ac', 'ab', { threshold: 0.51 }).passed).toBe(false);
  });
  it('rejects a threshold that is not a number', () => {
    expect(score('similarity', 'a', 'a', { threshold: 'high' }).checks[0]?.check).toBe('scoring config');
  });
});

describe('unordered_line_set', () => {
  it('ignores order and blank lines; extra lines fail unless allowed', () => {
    expect(score('unordered_line_set', 'B\n\nA\n', 'A\nB').passed).toBe(true);
    expect(score('unordered_line_set', 'A', 'A\nB').passed).toBe(false);
    expect(score('unordered_line_set', 'A\nB\nC', 'A\nB').passed).toBe(false);
    expect(score('unordered_line_set', 'A\nB\nC', 'A\nB', { allow_extra: true }).passed).toBe(true);
    expect(score('unordered_line_set', 'A\r\nB', 'A\nB').passed).toBe(true);
  });
});

describe('numeric_exact', () => {
  it('accepts one number in prose only with allow_prose', () => {
    expect(score('numeric_exact', ' 7 ', '7').passed).toBe(true);
    expect(score('numeric_exact', 'The answer is 7.', '7').passed).toBe(false);
    expect(score('numeric_exact', 'The answer is 7.', '7', { allow_prose: true }).passed).toBe(true);
    expect(score('numeric_exact', 'Either 6 or 7', '7', { allow_prose: true }).passed).toBe(false);
    expect(score('numeric_exact', '6', '7').passed).toBe(false);
  });
});

describe('json_semantic_equal', () => {
  it('compares parsed values as Python does', () => {
    expect(
      score('json_semantic_equal', '{\n "version": "2.0.0", "name": "MyApp"}', '{"name":"MyApp","version":"2.0.0"}')
        .passed,
    ).toBe(true);
    expect(score('json_semantic_equal', '{"version":"1.0.0"}', '{"version":"2.0.0"}').passed).toBe(false);
    expect(score('json_semantic_equal', 'version: 2.0.0', '{"version":"2.0.0"}').checks[0]?.detail).toContain(
      'not valid JSON',
    );
    expect(score('json_semantic_equal', '[1.0, true]', '[1, 1]').passed).toBe(true);
    expect(score('json_semantic_equal', '12345678901234567891', '12345678901234567890').passed).toBe(false);
    expect(score('json_semantic_equal', '[1, 2]', '[2, 1]').passed).toBe(false);
    expect(score('json_semantic_equal', 'NaN', 'NaN').passed).toBe(false);
    expect(score('json_semantic_equal', '{"a":1,"a":2}', '{"a":2}').passed).toBe(true);
  });
});

describe('command_equivalence', () => {
  const accepted = { accepted: ['git worktree list', 'git worktree list --porcelain'] };
  it('normalises whitespace, quoting and one whole-answer fence', () => {
    expect(score('command_equivalence', '\n  git   worktree    list  \n', '', accepted).passed).toBe(true);
    expect(score('command_equivalence', '```bash\ngit worktree list --porcelain\n```', '', accepted).passed).toBe(true);
    const lock = { accepted: ["git worktree lock --reason 'do not delete' ../feature-wt"] };
    expect(
      score('command_equivalence', 'git worktree lock --reason "do not delete" ../feature-wt', '', lock).passed,
    ).toBe(true);
  });
  it('does not equate flag order or combined short flags', () => {
    const clean = { accepted: ['git clean -f -d'] };
    expect(score('command_equivalence', 'git clean -fd', '', clean).passed).toBe(false);
    expect(score('command_equivalence', 'git clean -d -f', '', clean).passed).toBe(false);
  });
  it('compares multi-command sequences in order', () => {
    const seq = { accepted: [['git submodule init', 'git submodule update'], ['git submodule update --init']] };
    expect(score('command_equivalence', 'git submodule init\ngit submodule update', '', seq).passed).toBe(true);
    expect(score('command_equivalence', 'git submodule update --init', '', seq).passed).toBe(true);
    expect(score('command_equivalence', 'git submodule update\ngit submodule init', '', seq).passed).toBe(false);
  });
  it('fails prose around a fence and unparsable lines with a reason', () => {
    expect(
      score('command_equivalence', 'Run this:\n```bash\ngit worktree list\n```', '', accepted).checks[0]?.detail,
    ).toContain('prose around');
    expect(score('command_equivalence', "git worktree list 'unterminated", '', accepted).checks[0]?.detail).toContain(
      'No closing quotation',
    );
    expect(score('command_equivalence', 'git worktree list', '', {}).checks[0]?.check).toBe('scoring config');
  });
});

describe('structured', () => {
  const fields = { fields: { sha: { type: 'exact_match' }, summary: { type: 'similarity', threshold: 0.9 } } };
  it('decides on exact fields only; similarity fields shape the score', () => {
    const ok = score(
      'structured',
      'sha: abc123\nsummary: totally different',
      'sha: abc123\nsummary: Fix the bug',
      fields,
    );
    expect(ok.passed).toBe(true);
    expect(ok.score).toBeLessThan(1);
    expect(
      score('structured', 'sha: abc124\nsummary: Fix the bug', 'sha: abc123\nsummary: Fix the bug', fields).passed,
    ).toBe(false);
    expect(score('structured', 'plain words', 'other plain words').passed).toBe(true);
  });
});

describe('commit_selection', () => {
  it('matches subjects case-insensitively, with bullets or commas', () => {
    expect(
      score('commit_selection', '- wip: continue work\n* WIP: add main.py', 'WIP: add main.py\nWIP: continue work')
        .passed,
    ).toBe(true);
    expect(
      score('commit_selection', 'WIP: add main.py, WIP: continue work', 'WIP: add main.py\nWIP: continue work').passed,
    ).toBe(true);
  });
  it('does not read subjects behind hashes and fails extras', () => {
    expect(
      score(
        'commit_selection',
        '785748f WIP: continue work\n6a87660 WIP: add main.py',
        'WIP: add main.py\nWIP: continue work',
      ).passed,
    ).toBe(false);
    expect(score('commit_selection', 'WIP: add main.py\nAdd README', 'WIP: add main.py').passed).toBe(false);
    expect(
      score('commit_selection', 'WIP: add main.py\nAdd README', 'WIP: add main.py', { allow_extra: true }).passed,
    ).toBe(true);
  });
});

describe('stash_recovery', () => {
  it('finds the exact stash reference anywhere in the answer', () => {
    expect(score('stash_recovery', 'Run `git stash apply stash@{2}`', 'stash@{2}').passed).toBe(true);
    expect(score('stash_recovery', 'stash@{1}', 'stash@{2}').passed).toBe(false);
    expect(score('stash_recovery', 'stash@{12}', 'stash@{1}').passed).toBe(false);
  });
  it('with exclusive, fails an answer that also names another stash', () => {
    expect(score('stash_recovery', 'stash@{0} or stash@{2}', 'stash@{2}').passed).toBe(true);
    const hedge = score('stash_recovery', 'stash@{0} or stash@{2}', 'stash@{2}', { exclusive: true });
    expect(hedge.passed).toBe(false);
    expect(hedge.checks.at(-1)?.detail).toBe('answer also names stash@{0}');
    expect(
      score('stash_recovery', 'git stash apply stash@{2} && git stash drop stash@{2}', 'stash@{2}', { exclusive: true })
        .passed,
    ).toBe(true);
  });
});

describe('llm_judge', () => {
  it('asks for a judge and turns the judge score into a verdict at the threshold', () => {
    const f = fixture({ type: 'llm_judge', threshold: 0.5 }, 'Add hello.txt');
    const pending = getScorer('llm_judge').score({ fixture: f, output: 'Add hello' });
    expect(pending.needsJudge).toBe(true);
    expect(pending.passed).toBe(false);
    expect(judgeVerdict(f, 0.5).passed).toBe(true);
    expect(judgeVerdict(f, 0.49).passed).toBe(false);
  });
});

describe('registry', () => {
  it('has a scorer for every scoring type and a clear error for others', () => {
    for (const type of SCORING_TYPES) expect(getScorer(type).type).toBe(type);
    expect(() => getScorer('fuzzy')).toThrow(/unknown scoring type "fuzzy"; known types: exact_match/);
  });

  it('turns a scorer that throws into a failed check naming it', () => {
    const broken = {
      ...getScorer('exact_match'),
      score: () => {
        throw new Error('boom');
      },
    };
    const result = runScorer(broken, { fixture: fixture({ type: 'exact_match' }), output: 'x' });
    expect(result).toEqual({
      passed: false,
      score: 0,
      checks: [{ check: 'attempt', ok: false, detail: 'exact_match failed: boom' }],
    });
  });
});

describe('hostile outputs', () => {
  const configs: Record<string, Record<string, unknown>> = {
    command_equivalence: { accepted: ['git status'] },
    structured: { fields: { answer: { type: 'exact_match' } } },
    resolved_file_blocks: { expected_files: { 'a.txt': 'x' } },
    commit_hash_by_subject: { subject: 'x' },
    state_assertions: {
      expected_state: {
        assertions: [
          { type: 'file_exists', path: 'a' },
          { type: 'model_output', contains: 'git' },
        ],
      },
    },
  };
  for (const type of SCORING_TYPES) {
    it(`${type} scores every hostile output without throwing`, () => {
      // structured needs `key: value` lines in expected, else any answer with a colon passes (as upstream).
      const f = fixture(
        { type, ...(configs[type] ?? {}) },
        type === 'structured' ? 'answer: expected' : 'expected answer',
      );
      for (const [name, output] of Object.entries(HOSTILE_OUTPUTS)) {
        const scorer = getScorer(type);
        const plan = scorer.plan(f, output);
        const result = scorer.score({ fixture: f, output });
        expect(result.passed, `${type} on ${name}`).toBe(false);
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.checks.length, name).toBeGreaterThan(0);
        for (const c of result.checks) expect(c.detail.length + (c.actual?.length ?? 0)).toBeLessThan(2000);
        if (plan) expect(plan.answerCommands.length).toBeLessThanOrEqual(500);
      }
    });
  }
});
