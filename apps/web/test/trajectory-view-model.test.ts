import { describe, expect, it } from 'vitest';
import { randomTrajectory } from '@gitbench/test-support';
import {
  alignByStep,
  byteSize,
  callLabel,
  clipStep,
  countOf,
  clipText,
  fullPart,
  headOf,
  jumpTargets,
  matchParts,
  mainArgument,
  repoChanged,
  resultLabel,
  searchStep,
  stepFailed,
  stepNumber,
  VIEW_LIMITS,
  type StepHead,
} from '../lib/trajectory/view-model';

describe('the random trajectory factory', () => {
  it('is reproducible from its seed and covers what the viewer must show', () => {
    const a = randomTrajectory({ seed: 3, steps: 120, bigOutputBytes: 40_000 });
    expect(randomTrajectory({ seed: 3, steps: 120, bigOutputBytes: 40_000 })).toEqual(a);
    const steps = a.steps;
    expect(steps.map((s) => s.index)).toEqual(steps.map((_, i) => i));
    expect(steps.some((s) => s.repo?.operations.includes('merge'))).toBe(true);
    expect(steps.some((s) => s.repo?.operations.includes('rebase'))).toBe(true);
    expect(steps.some((s) => s.formatStrike)).toBe(true);
    expect(steps.some((s) => s.toolCalls.some((c) => c.parseError))).toBe(true);
    expect(steps.some((s) => s.results.some((r) => r.exitCode !== null && r.exitCode !== 0))).toBe(true);
    expect(steps.some((s) => s.results.some((r) => r.truncatedBytes > 0))).toBe(true);
    expect(steps.some((s) => (s.repo?.refsChanged.length ?? 0) > 0)).toBe(true);
    expect(steps.at(-1)!.toolCalls[0]!.name).toBe('submit');
    expect(a.summary.steps).toBe(120);
    expect(a.summary.totals.toolCalls).toBe(steps.reduce((n, s) => n + s.toolCalls.length, 0));
  });

  it('makes the benchmark trajectory: 500 steps holding 50 MB of tool output', () => {
    const t = randomTrajectory({
      seed: 1,
      steps: 500,
      bigOutputBytes: 101_000,
      bigOutputEveryStep: true,
      maxToolOutputBytes: 131_072,
    });
    const bytes = t.steps.reduce((n, s) => n + s.results.reduce((m, r) => m + r.output.length, 0), 0);
    expect(t.steps).toHaveLength(500);
    expect(bytes).toBeGreaterThan(50_000_000);
  });
});

describe('what the viewer sends', () => {
  const { steps, summary } = randomTrajectory({
    seed: 5,
    steps: 60,
    bigOutputBytes: 200_000,
    exitStatus: 'turn_limit',
  });

  it('heads are small and carry what the list and the jumps need', () => {
    const heads = steps.map(headOf);
    expect(JSON.stringify(heads).length / heads.length).toBeLessThan(1_000);
    const bash = heads.flatMap((h) => h.calls).find((c) => c.name === 'bash');
    expect(bash?.label).toMatch(/^git |^python3 /);
    expect(heads.every((h) => h.calls.every((c) => c.label.length <= 160))).toBe(true);
  });

  it('clips long bodies to a preview with head and tail, and says how much it left out', () => {
    const big = steps.find((s) => s.results.some((r) => r.output.length > VIEW_LIMITS.outputBytes))!;
    const view = clipStep(big);
    const r = view.results[0]!;
    expect(r.output.length).toBeLessThan(VIEW_LIMITS.outputBytes + 200);
    expect(view.clipped.output[r.callId]).toBeGreaterThan(0);
    expect(r.output).toContain('bytes not loaded');
    expect(r.output.startsWith(big.results[0]!.output.slice(0, 100))).toBe(true);
    expect(r.output.endsWith(big.results[0]!.output.slice(-100))).toBe(true);
    // The full text stays one request away.
    expect(fullPart(big, { kind: 'output', callId: r.callId })).toBe(big.results[0]!.output);
    const small = steps.find((s) => s.results.every((r) => r.output.length < 1000) && s.results.length > 0)!;
    expect(clipStep(small)).toEqual({ ...small, clipped: { output: {}, arguments: {} } });
  });

  it('clips on characters without exceeding the byte budget for multi-byte text', () => {
    const text = 'é'.repeat(10_000);
    const c = clipText(text, 1_000);
    const kept = c.text.split(/\n\[.*\]\n/);
    expect(kept).toHaveLength(2);
    expect(new TextEncoder().encode(kept.join('')).length).toBeLessThanOrEqual(1_000);
    expect(kept.join('')).toMatch(/^é+$/);
    expect(c.clippedBytes).toBe(20_000 - new TextEncoder().encode(kept.join('')).length);
    const cut = clipText('a' + '€'.repeat(1_000), 100);
    expect(cut.text).not.toContain('\ufffd');
  });

  it('finds the first failing command, the limit and the conflicts', () => {
    const heads = steps.map(headOf);
    const jumps = jumpTargets(heads, { limit: true, exitStep: summary.exitStep });
    expect(jumps.firstFailure).toBe(heads.findIndex(stepFailed));
    expect(jumps.limit).toBe(59);
    expect(jumps.conflicts.length).toBeGreaterThan(0);
    expect(jumpTargets(heads, { limit: false, exitStep: 59 }).limit).toBeNull();
    expect(jumps.formatStrikes).toEqual(heads.filter((h) => h.formatStrike).map((h) => h.index));
  });

  it('searches every text of a step, case-insensitively, naming where it matched', () => {
    const merge = steps.find((s) => s.results.some((r) => r.output.includes('CONFLICT')))!;
    expect(searchStep(merge, 'conflict (content)')?.fields).toContain('output');
    expect(searchStep(merge, 'GIT MERGE')?.fields).toContain('arguments');
    expect(searchStep(merge, 'no such text anywhere')).toBeNull();
  });

  it('aligns two trajectories by step and marks where their repositories agree', () => {
    const a = steps.map(headOf);
    const b = a
      .slice(0, 40)
      .map((h, i) => (i < 10 ? h : { ...h, repo: h.repo && { ...h.repo, head: 'f'.repeat(40) } }));
    const rows = alignByStep(a, b);
    expect(rows).toHaveLength(60);
    expect(rows.slice(0, 10).every((r) => r.sameRepo)).toBe(true);
    expect(rows[20]!.sameRepo).toBe(false);
    expect(rows[50]!.b).toBeNull();
  });
});

describe("the viewer's labels", () => {
  it(
    'numbers steps from 1 as the total counts them, says ' + '"1 step", and sizes tool output in the unit that fits',
    () => {
      expect([0, 5].map(stepNumber)).toEqual([1, 6]);
      expect([countOf(1, 'step'), countOf(6, 'step'), countOf(0, 'step'), countOf(1200, 'step')]).toEqual([
        '1 step',
        '6 steps',
        '0 steps',
        '1,200 steps',
      ]);
      expect([0, 999, 1000, 43_210, 2_500_000].map(byteSize)).toEqual(['0 B', '999 B', '1.0 KB', '43.2 KB', '2.5 MB']);
    },
  );

  it(
    'marks a step ◆ only where it changed the repository ' +
      'against the step before, not for a merge left in progress',
    () => {
      type Repo = NonNullable<StepHead['repo']>;
      const still: Repo = {
        head: 'a'.repeat(40),
        branch: 'main',
        staged: 0,
        unstaged: 0,
        untracked: 0,
        conflicted: 1,
        operations: ['merge'],
        refsChanged: 0,
        diffBytes: 0,
        diffTruncatedBytes: 0,
      };
      expect(repoChanged(still, still)).toBe(false);
      expect(repoChanged(still, null)).toBe(false);
      expect(repoChanged(null, still)).toBe(false);
      expect(repoChanged({ ...still, diffBytes: 12 }, still)).toBe(true);
      expect(repoChanged({ ...still, refsChanged: 1 }, null)).toBe(true);
      expect(repoChanged({ ...still, operations: [] }, still)).toBe(true);
      expect(repoChanged({ ...still, head: 'b'.repeat(40) }, still)).toBe(true);
      expect(repoChanged({ ...still, branch: null }, still)).toBe(true);
    },
  );
});

describe("a tool call's label", () => {
  it(
    "reads a GitGoodBench tool's arguments as name=value instead " +
      "of raw JSON, and keeps a submitted answer's lines whole",
    () => {
      const args = { relative_path_from_project_root: 'src/click/core.py', offset: 120, limit: 80 };
      expect(callLabel({ name: 'view_file_at', arguments: args, rawArguments: JSON.stringify(args) })).toBe(
        'relative_path_from_project_root=src/click/core.py offset=120 limit=80',
      );
      const answer = 'Resolved both conflicts.\n\n- kept the new name\n- dropped the old shim';
      expect(mainArgument({ answer })).toBe(answer);
      expect(callLabel({ name: 'submit', arguments: { answer }, rawArguments: JSON.stringify({ answer }) })).toBe(
        'Resolved both conflicts. - kept the new name - dropped the old shim',
      );
      expect(mainArgument({ offset: 3 })).toBeNull();
      expect(mainArgument(['git status'])).toBeNull();
      expect(callLabel({ name: 'bash', arguments: null, rawArguments: '{"command": "git st' })).toBe(
        '{"command": "git st',
      );
    },
  );
});

describe('the parts of a text a search matched', () => {
  it('are every case-insensitive occurrence, the text kept whole and in order', () => {
    const text = "git: 'Chekout' is not a git command; did you mean chekout? (CHEKOUT)";
    const parts = matchParts(text, 'chekout');
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['Chekout', 'chekout', 'CHEKOUT']);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts[0]).toEqual({ text: "git: '", match: false });
  });

  it('take the query literally, and leave a text without a match or a query as one part', () => {
    expect(matchParts('a.b a+b (a)', 'a+b')).toEqual([
      { text: 'a.b ', match: false },
      { text: 'a+b', match: true },
      { text: ' (a)', match: false },
    ]);
    expect(matchParts('[x] and [x]', '[x]').filter((p) => p.match)).toHaveLength(2);
    expect(matchParts('nothing here', 'zzz')).toEqual([{ text: 'nothing here', match: false }]);
    expect(matchParts('nothing here', null)).toEqual([{ text: 'nothing here', match: false }]);
    expect(matchParts('match', 'match')).toEqual([{ text: 'match', match: true }]);
  });
});

describe('resultLabel', () => {
  const ran = { timedOut: false, exitCode: 0, isError: false };
  it("names a sandbox that failed under a call as such, never as the command's exit", () => {
    expect(resultLabel(ran)).toBe('exit 0');
    expect(resultLabel({ ...ran, exitCode: null, isError: true })).toBe('error');
    expect(resultLabel({ ...ran, timedOut: true, exitCode: 124 })).toBe('timed out');
    expect(resultLabel({ ...ran, exitCode: null, isError: true, sandboxError: 'container is not running' })).toBe(
      'sandbox failed',
    );
  });
});
