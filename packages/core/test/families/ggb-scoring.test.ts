import { describe, expect, it } from 'vitest';
import {
  GGB_CHECK_DIFF_LINES,
  GGB_PROBES,
  InMemoryHistoryJudgeCache,
  getScorer,
  historyCommand,
  judgeHistories,
  judgeMessage,
  parseHistory,
  parseHistoryReply,
  scriptedHistoryJudge,
  withHistoryJudgement,
  type ExecRecord,
  type Fixture,
  type GgbCommit,
  type GgbOutcome,
  type SandboxEvidence,
} from '../../src';
import { tempRepo } from './ggb-host-context';

const sha = (c: string) => c.repeat(40);
const rec = (stdout: string, exitCode = 0): ExecRecord => ({
  command: '',
  exitCode,
  stdout,
  stderr: '',
  timedOut: false,
  truncated: false,
  durationMs: 1,
});
const evidence = (probes: Record<string, ExecRecord>): SandboxEvidence => ({ answer: [], probes });
const MERGE_BUNDLE = { asset: '_assets/merges/x.bundle', sha256: '0'.repeat(64), base64: 'AAAA' };
const fixture = (scoring: Record<string, unknown>) =>
  ({
    id: 'x',
    domain: 'ggb',
    scoring,
    expected: '',
    prompt: '',
    setup: [],
    assets: [MERGE_BUNDLE],
  }) as unknown as Fixture;
const commit = (subject: string, diff = `diff --git a/f.py b/f.py\n+${subject}\n`): GgbCommit => ({
  sha: '',
  subject,
  message: subject,
  files: ['f.py'],
  diff,
});

describe('ggb_mcr', () => {
  const f = fixture({
    type: 'ggb_mcr',
    merge_commit: sha('a'),
    merge_tree: sha('b'),
    merge_bundle: MERGE_BUNDLE.asset,
    conflicts: 2,
    files: ['x.py'],
    band: 'medium',
  });
  const scorer = getScorer('ggb_mcr');

  it('probes unmerged files, then brings in the merge commit and diffs HEAD with its tree', () => {
    const plan = scorer.plan(f, 'git commit');
    expect(plan?.answerCommands).toEqual(['git commit']);
    expect(plan?.probes[0]!.command).toBe('git diff --name-only --diff-filter=U');
    const diff = plan!.probes.at(-1)!;
    expect(diff.id).toBe(GGB_PROBES.diff);
    expect(diff.command).toMatch(
      /git bundle unbundle .*merge\.bundle >\/dev\/null && git diff --no-color --no-ext-diff b{40} HEAD$/,
    );
    expect(scorer.plan(f, '  ')?.answerCommands).toEqual([]);
    const noAsset = scorer.score({ fixture: { ...f, assets: [] }, output: '' });
    expect(noAsset.checks[0]!.detail).toMatch(/merge_bundle/);
  });

  it('is solved iff nothing is unmerged and the diff is empty', () => {
    const solved = scorer.score({
      fixture: f,
      output: '',
      evidence: evidence({ [GGB_PROBES.unmerged]: rec(''), [GGB_PROBES.diff]: rec('') }),
    });
    expect(solved.passed).toBe(true);
    expect(solved.family).toMatchObject({
      family: 'ggb',
      scenario: 'mcr',
      success: true,
      solved: true,
      mcr: { mergeCommit: sha('a'), unmerged: [], diff: '' },
    });
    const open = scorer.score({
      fixture: f,
      output: '',
      evidence: evidence({
        [GGB_PROBES.unmerged]: rec('x.py\n'),
        [GGB_PROBES.diff]: rec('diff --git a/x.py b/x.py\n-a\n+b\n'),
      }),
    });
    expect(open.passed).toBe(false);
    expect((open.family as GgbOutcome).mcr).toMatchObject({ unmerged: ['x.py'], diffTruncated: false });
    expect(open.checks.map((c) => c.ok)).toEqual([false, false]);
    expect(scorer.score({ fixture: f, output: '', evidence: evidence({}) }).passed).toBe(false);
  });

  it('names the differing files and shows the start of the diff in the failing check', () => {
    const hunk = (file: string, n: number) =>
      [
        `diff --git a/${file} b/${file}`,
        `--- a/${file}`,
        `+++ b/${file}`,
        '@@ -1 +1 @@',
        ...Array.from({ length: n }, (_, i) => `-old ${i}\n+new ${i}`),
      ].join('\n');
    const small = `${hunk('x.py', 1)}\n${hunk('docs/y.md', 1)}\n`;
    const one = scorer.score({
      fixture: f,
      output: '',
      evidence: evidence({ [GGB_PROBES.unmerged]: rec(''), [GGB_PROBES.diff]: rec(small) }),
    });
    const failing = one.checks.find((c) => c.check === 'HEAD equals the merge commit')!;
    expect(failing.ok).toBe(false);
    expect(failing.detail).toBe(`HEAD differs from the merge commit in 2 file(s): x.py, docs/y.md\n${small.trimEnd()}`);
    expect((one.family as GgbOutcome).detail).toBe('HEAD differs from the merge commit in 2 file(s): x.py, docs/y.md');

    const long = `${hunk('big.py', 100)}\n`;
    const capped = scorer.score({
      fixture: f,
      output: '',
      evidence: evidence({ [GGB_PROBES.unmerged]: rec(''), [GGB_PROBES.diff]: rec(long) }),
    });
    const lines = capped.checks[1]!.detail.split('\n');
    expect(lines[0]).toBe('HEAD differs from the merge commit in 1 file(s): big.py');
    expect(lines.slice(1, -1)).toEqual(long.split('\n').slice(0, GGB_CHECK_DIFF_LINES));
    expect(lines.at(-1)).toBe(
      `… ${204 - GGB_CHECK_DIFF_LINES} more diff line(s), see the whole diff in the attempt's evidence`,
    );
    expect((capped.family as GgbOutcome).mcr!.diff).toBe(long);
  });

  it('names a broken scoring block', () => {
    const bad = scorer.score({ fixture: fixture({ type: 'ggb_mcr', merge_tree: 'nope' }), output: '' });
    expect(bad.checks[0]!.detail).toMatch(/merge_tree/);
  });
});

describe('ggb_ir and ggb_icc', () => {
  const original = [commit('Add a'), commit('Add b')];
  const ir = fixture({ type: 'ggb_ir', base: sha('c'), band: 'short', chain_length: 2, original_history: original });
  const icc = fixture({
    type: 'ggb_icc',
    base: sha('c'),
    band: 'short',
    chain_length: 2,
    original_history: original,
    target_file: 'f.py',
    final_blob: sha('d'),
  });
  const history = (commits: string[]) =>
    commits.map((s) => `\u001e${sha('e')}\u001f${s}\n\u001f\ndiff --git a/f.py b/f.py\n+${s}\n`).join('');

  it('fails IR while a rebase is in progress, without asking the judge', () => {
    const s = getScorer('ggb_ir').score({
      fixture: ir,
      output: '',
      evidence: evidence({ [GGB_PROBES.rebase]: rec('in-progress\n'), [GGB_PROBES.history]: rec('') }),
    });
    expect(s.needsJudge).toBeUndefined();
    expect(s.family).toMatchObject({ scenario: 'ir', solved: false, histories: { rebaseInProgress: true } });
  });

  it('hands a finished IR to the judge with both histories', () => {
    const s = getScorer('ggb_ir').score({
      fixture: ir,
      output: '',
      evidence: evidence({ [GGB_PROBES.rebase]: rec('none\n'), [GGB_PROBES.history]: rec(history(['Add a and b'])) }),
    });
    expect(s.needsJudge).toBe(true);
    const family = s.family as GgbOutcome;
    expect(family.solved).toBeNull();
    expect(family.histories!.agent.map((c) => c.subject)).toEqual(['Add a and b']);
    expect(family.histories!.original).toEqual(original);
  });

  it('fails ICC when the target file is not fully committed, and reads only the target file', () => {
    const plan = getScorer('ggb_icc').plan(icc, '');
    expect(plan?.probes.find((p) => p.id === GGB_PROBES.history)?.command).toBe(historyCommand(sha('c'), 'f.py'));
    const s = getScorer('ggb_icc').score({
      fixture: icc,
      output: '',
      evidence: evidence({
        [GGB_PROBES.rebase]: rec('none\n'),
        [GGB_PROBES.history]: rec(history(['x'])),
        [GGB_PROBES.finalBlob]: rec(`${sha('f')}\n`),
      }),
    });
    expect(s.family).toMatchObject({ scenario: 'icc', solved: false, histories: { targetFile: 'f.py' } });
    const none = getScorer('ggb_icc').score({
      fixture: icc,
      output: '',
      evidence: evidence({
        [GGB_PROBES.rebase]: rec('none\n'),
        [GGB_PROBES.history]: rec(''),
        [GGB_PROBES.finalBlob]: rec(`${sha('d')}\n`),
      }),
    });
    expect(none.family).toMatchObject({ solved: false, detail: expect.stringMatching(/no commit/) });
  });
});

describe('the pairwise history judge', () => {
  const original = [commit('Add a'), commit('Add b')];

  it('asks twice with the positions swapped; the original itself ties both times', async () => {
    const prompts: string[] = [];
    const ask = scriptedHistoryJudge({ original, agent: original });
    const j = await judgeHistories({ original, agent: original, ask: (p) => (prompts.push(p), ask(p)) });
    expect(prompts).toHaveLength(2);
    expect(j).toMatchObject({ status: 'scored', solved: false, tieOrWin: true });
    expect(j.verdicts.map((v) => [v.agentAs, v.result])).toEqual([
      ['HISTORY-1', 'TIE'],
      ['HISTORY-2', 'TIE'],
    ]);
  });

  it('shows both histories the same way: no trailers, one whitespace style', async () => {
    const body = 'Add a\n\nExplain why a is needed.';
    const withTrailers: GgbCommit = {
      ...commit('Add a'),
      message:
        'Add a  \r\n\r\n\r\nExplain why a is needed.\t\r\nSigned-off-by: Jane Dev ' +
        '<jane@example.org>\r\n\r\nCo-authored-by: Sam <sam@example.org>\r\nReviewed-by: ' +
        'Kim <kim@example.org>\r\n  continued\r\n(cherry picked from commit abc123)\r\n',
    };
    const plain: GgbCommit = { ...commit('Add a'), message: body };
    const prompts: string[] = [];
    const ask = scriptedHistoryJudge({ original: [withTrailers], agent: [plain] });
    await judgeHistories({ original: [withTrailers], agent: [plain], ask: (p) => (prompts.push(p), ask(p)) });
    const shown = (p: string, n: 1 | 2) => new RegExp(`<HISTORY-${n}>\\n([\\s\\S]*)\\n</HISTORY-${n}>`).exec(p)![1];
    expect(shown(prompts[0]!, 1)).toBe(shown(prompts[0]!, 2));
    expect(shown(prompts[1]!, 1)).toBe(shown(prompts[1]!, 2));
    expect(shown(prompts[0]!, 1)).toContain(`Message:\n${body}\n\nChanges:`);
    expect(prompts.join('')).not.toMatch(/Signed-off-by|Co-authored-by|Reviewed-by|cherry picked|\r/);
    // A subject that looks like a trailer stays, and so does a body paragraph that is not all trailers.
    expect(judgeMessage('Fix: parse dates')).toBe('Fix: parse dates');
    expect(judgeMessage('Fix dates\n\nNote: the old parser is kept.\nIt still reads ISO dates.')).toBe(
      'Fix dates\n\nNote: the old parser is kept.\nIt still reads ISO dates.',
    );
    expect(judgeMessage('Fix dates\n\nRefs: #12\nSigned-off-by: A <a@b>')).toBe('Fix dates');
  });

  it('solves only when the agent wins both orderings; a position-biased judge does not solve', async () => {
    const agent = [commit('Add a'), commit('Add b'), commit('Add c')];
    const win = await judgeHistories({ original, agent, ask: scriptedHistoryJudge({ original, agent }) });
    expect(win).toMatchObject({ status: 'scored', solved: true });
    const lose = await judgeHistories({
      original,
      agent: [commit('wip')],
      ask: scriptedHistoryJudge({ original, agent: [commit('wip')] }),
    });
    expect(lose).toMatchObject({ status: 'scored', solved: false, tieOrWin: false });
    const firstAlways = await judgeHistories({
      original,
      agent,
      ask: () => Promise.resolve({ reply: { evaluation_result: 'HISTORY-1', evaluation_reason: 'first' } }),
    });
    expect(firstAlways).toMatchObject({ status: 'scored', solved: false });
    expect(firstAlways.verdicts.map((v) => v.agentWon)).toEqual([true, false]);
  });

  it('leaves the attempt unscored when a question has no usable reply, and caches only scored judgements', async () => {
    const cache = new InMemoryHistoryJudgeCache();
    const c = { store: cache, fixtureInputHash: 'h', judgeConfigHash: 'j' };
    let calls = 0;
    const failing = await judgeHistories({
      original,
      agent: original,
      cache: c,
      ask: () =>
        calls++ === 0 ? Promise.resolve({ reply: null, error: 'timeout' }) : Promise.reject(new Error('boom')),
    });
    expect(failing).toMatchObject({ status: 'unscored', reason: expect.stringMatching(/timeout.*boom/) });
    expect(cache.size).toBe(0);
    const outcome = withHistoryJudgement(
      { family: 'ggb', scenario: 'ir', success: true, solved: null, detail: '' },
      failing,
    );
    expect(outcome).toMatchObject({ solved: null, judge: { status: 'unscored' } });
    const ask = scriptedHistoryJudge({ original, agent: original });
    await judgeHistories({ original, agent: original, cache: c, ask });
    expect(cache.size).toBe(1);
    const again = await judgeHistories({
      original,
      agent: original,
      cache: c,
      ask: () => Promise.reject(new Error('not asked')),
    });
    expect(again.status).toBe('scored');
  });

  it('parses structured replies and refuses anything else', () => {
    expect(parseHistoryReply('```json\n{"evaluation_result":"TIE","evaluation_reason":"same"}\n```')).toEqual({
      reply: { evaluation_result: 'TIE', evaluation_reason: 'same' },
    });
    expect(parseHistoryReply('HISTORY-1').reply).toBeNull();
    expect(parseHistoryReply('{"evaluation_result":"BOTH","evaluation_reason":""}').reply).toBeNull();
  });
});

describe('histories read from git', () => {
  it('parse messages, files and patches oldest first, with CRLF kept', () => {
    const { sh } = tempRepo();
    sh(
      `printf 'a\\r\\n' > f.py && git add . && git commit -qm base && printf ` +
        `'b\\r\\n' >> f.py && printf 'x\\n' > g.py && git add . && git commit -qm 'Add ` +
        `b' -m 'Body line' && printf 'c\\r\\n' >> f.py && git commit -qam 'Add c'`,
    );
    const base = sh('git rev-parse HEAD~2').trim();
    const all = parseHistory(sh(historyCommand(base)));
    expect(all.map((c) => [c.subject, c.files])).toEqual([
      ['Add b', ['f.py', 'g.py']],
      ['Add c', ['f.py']],
    ]);
    expect(all[0]!.message).toBe('Add b\n\nBody line');
    expect(all[1]!.diff).toContain('+c\r\n');
    expect(all[1]!.diff).not.toMatch(/^index /m);
    expect(parseHistory(sh(historyCommand(base, 'g.py'))).map((c) => c.subject)).toEqual(['Add b']);
  });
});
