import { describe, expect, it } from 'vitest';
import { trajectoryStepSchema, trajectorySummarySchema, type TrajectoryStep } from '@gitbench/core';
import { bash, fakeRepo, runScripted, submit, toolReply } from './support/agent-server';

/** Times and durations vary from run to run; everything else in a trajectory must not. */
function normalise(steps: TrajectoryStep[]): unknown {
  return steps.map((s) => ({
    ...s,
    startedAt: '<time>',
    finishedAt: '<time>',
    modelMs: '<ms>',
    toolMs: '<ms>',
    results: s.results.map((r) => ({ ...r, durationMs: '<ms>' })),
  }));
}

describe('golden trajectory', () => {
  it('records every step of a scripted conversation exactly', async () => {
    const repo = fakeRepo({ 'notes.txt': 'one\ntwo\n' }, (c) =>
      c.startsWith('git show') ? { stderr: 'fatal: bad revision\n', exitCode: 128 } : { stdout: `ran: ${c}\n` },
    );
    const run = await runScripted(
      [
        toolReply({
          content: 'Looking around.',
          calls: [bash('git status --short', 'c1'), bash('git show nope', 'c2')],
        }),
        toolReply({
          calls: [{ name: 'str_replace', args: { path: 'notes.txt', old_str: 'two', new_str: '2' }, id: 'c3' }],
        }),
        toolReply({ content: 'Hmm.' }),
        toolReply({ calls: [{ name: 'read_file', args: '{"path": ', id: 'c4' }], finish: 'length' }),
        toolReply({ calls: [submit('done', 'c5'), bash('echo late', 'c6')] }),
      ],
      { repo },
    );
    for (const s of run.result.steps) trajectoryStepSchema.parse(s);
    trajectorySummarySchema.parse(run.result.summary);
    expect(repo.files['notes.txt']).toBe('one\n2\n');
    const { totals, ...summary } = run.result.summary;
    await expect(
      JSON.stringify(
        {
          summary: { ...summary, totals: { ...totals, modelMs: '<ms>', toolMs: '<ms>', wallMs: '<ms>' } },
          steps: normalise(run.result.steps),
        },
        null,
        2,
      ) + '\n',
    ).toMatchFileSnapshot('golden/scripted-conversation.json');
  });
});
