import { describe, expect, it } from 'vitest';
import type { SuiteRunEntry } from '@gitbench/engine';
import { attemptLine, attemptResult, formatRunReport, type RunReport } from '../src/run-report';

const report = (provider: string, profile: string): RunReport => ({
  model: 'acme/coder',
  provider,
  profile,
  simulated: false,
  suite: { dir: 'fixtures', version: '1', fixtures: 0, selected: 0, invalidFiles: 0 },
  runs: [],
  notes: [],
});

describe('the run report', () => {
  it("names the profile once, whether or not the provider's name carries it", () => {
    expect(formatRunReport(report('openai (profile relay)', 'relay')).split('\n')[0]).toBe(
      'acme/coder via openai (profile relay)',
    );
    expect(formatRunReport(report('oracle', 'builtin')).split('\n')[0]).toBe('acme/coder via oracle (profile builtin)');
  });

  it('says per attempt what ended it and how long it took', () => {
    const fixture = { domain: 'git_grep', id: 'f001' } as SuiteRunEntry['fixture'];
    const agent = { agent: { summary: { exitStatus: 'submitted', steps: 3 } } } as unknown as SuiteRunEntry['run'];
    const scored = {
      fixture,
      outputMode: 'text',
      trial: 2,
      attempt: { outcome: 'PASS' },
      response: null,
      run: agent,
      durationMs: 13_240,
    } as unknown as SuiteRunEntry;
    expect(attemptLine(4, 16, scored)).toBe(
      '[4/16] git_grep/f001 agent trial 2: PASS, submitted after 3 step(s) in 13.2 s',
    );
    const notRun = {
      fixture,
      outputMode: 'json_schema',
      trial: 1,
      attempt: null,
      response: null,
      error: 'the endpoint refused',
      durationMs: 900,
    } as unknown as SuiteRunEntry;
    expect(attemptLine(1, 2, notRun)).toBe(
      '[1/2] git_grep/f001 json_schema trial 1: NOT_RUN in 0.9 s: the endpoint refused',
    );
    // The same facts as a record for --json.
    expect(attemptResult(scored)).toEqual({
      fixture: 'git_grep/f001',
      outcome: 'PASS',
      seconds: 13.2,
      exitStatus: 'submitted',
      steps: 3,
    });
    expect(attemptResult(notRun)).toEqual({
      fixture: 'git_grep/f001',
      outcome: 'NOT_RUN',
      seconds: 0.9,
      error: 'the endpoint refused',
    });
  });

  it('says how many of the suite a selection ran', () => {
    const r = {
      ...report('oracle', 'builtin'),
      suite: { dir: 'fixtures/hard', version: '1', fixtures: 13, selected: 2, invalidFiles: 0 },
    };
    expect(formatRunReport(r)).toContain('suite fixtures/hard version 1: 2 of 13 fixture(s)');
    expect(formatRunReport({ ...r, suite: { ...r.suite, selected: 13 } })).toContain('version 1: 13 fixture(s)');
  });
});
