import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ATIF_SCHEMA_VERSION,
  toAtif,
  trajectoryStepSchema,
  trajectorySummarySchema,
  type TrajectoryStep,
  type TrajectorySummary,
} from '../../src';
import { repo } from './repo-state';

const GOLDEN = path.join(import.meta.dirname, 'atif.golden.json');

const usage = (inputTokens: number | null, outputTokens: number | null, costUsd: number | null) => ({
  inputTokens,
  outputTokens,
  reasoningTokens: null,
  totalTokens: inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null,
  costUsd,
  costEstimated: false,
});

/** Three turns: a failing merge that leaves a conflict, a turn with refused arguments, and submit. */
const steps: TrajectoryStep[] = [
  {
    index: 0,
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:00:02.500Z',
    modelMs: 2000,
    toolMs: 500,
    channel: 'native',
    message: { content: 'Merging the feature branch.', reasoning: 'The task asks for a merge.' },
    toolCalls: [
      {
        id: 'call_1',
        name: 'bash',
        rawArguments: '{"command":"git merge feature"}',
        arguments: { command: 'git merge feature' },
        parseError: null,
      },
    ],
    results: [
      {
        callId: 'call_1',
        name: 'bash',
        isError: false,
        exitCode: 1,
        timedOut: false,
        durationMs: 480,
        output: 'CONFLICT (content): Merge conflict in a.txt\n',
        outputBytes: 44,
        truncatedBytes: 0,
      },
    ],
    usage: usage(1200, 40, 0.0034),
    finishReason: 'tool_calls',
    retries: 0,
    formatStrike: false,
    runtimeNote: null,
    repo: repo('1111111111111111111111111111111111111111', {
      conflicted: 1,
      operations: ['merge'],
      diff: 'diff --cc a.txt\n',
      diffBytes: 16,
    }),
  },
  {
    index: 1,
    startedAt: '2026-11-20T10:00:02.500Z',
    finishedAt: '2026-11-20T10:00:03.000Z',
    modelMs: 500,
    toolMs: 0,
    channel: 'native',
    message: { content: null, reasoning: null },
    toolCalls: [
      {
        id: 'call_2',
        name: 'write_file',
        rawArguments: '{"path":"a.txt","cont',
        arguments: null,
        parseError: 'arguments are not valid JSON',
      },
    ],
    results: [
      {
        callId: 'call_2',
        name: 'write_file',
        isError: true,
        exitCode: null,
        timedOut: false,
        durationMs: 0,
        output: 'error: arguments are not valid JSON',
        outputBytes: 35,
        truncatedBytes: 0,
      },
    ],
    usage: usage(1300, 20, null),
    finishReason: 'length',
    retries: 1,
    formatStrike: false,
    runtimeNote: null,
    repo: repo('1111111111111111111111111111111111111111', { conflicted: 1, operations: ['merge'] }),
  },
  {
    index: 2,
    startedAt: '2026-11-20T10:00:03.000Z',
    finishedAt: '2026-11-20T10:00:04.000Z',
    modelMs: 700,
    toolMs: 300,
    channel: 'native',
    message: { content: 'Resolved and committed.', reasoning: null },
    toolCalls: [
      {
        id: 'call_3',
        name: 'submit',
        rawArguments: '{"answer":"done"}',
        arguments: { answer: 'done' },
        parseError: null,
      },
    ],
    results: [
      {
        callId: 'call_3',
        name: 'submit',
        isError: false,
        exitCode: null,
        timedOut: false,
        durationMs: 0,
        output: 'submitted',
        outputBytes: 9,
        truncatedBytes: 0,
      },
    ],
    usage: usage(1400, 30, 0.0039),
    finishReason: 'tool_calls',
    retries: 0,
    formatStrike: false,
    runtimeNote: null,
    repo: repo('2222222222222222222222222222222222222222', {
      refsChanged: [
        {
          ref: 'refs/heads/main',
          before: '1111111111111111111111111111111111111111',
          after: '2222222222222222222222222222222222222222',
        },
      ],
    }),
  },
];

const summary: TrajectorySummary = {
  version: 1,
  agent: 'openai/gpt-test',
  model: 'openai/gpt-test',
  toolSet: 'bash+editor',
  protocol: 'native',
  exitStatus: 'submitted',
  exitDetail: null,
  exitStep: 2,
  submission: 'done',
  steps: 3,
  totals: { ...usage(3900, 90, 0.0081), modelMs: 3200, toolMs: 800, wallMs: 4000, toolCalls: 3 },
  systemPrompt: 'You work in a git repository.',
  taskPrompt: 'Merge feature into main.',
};

describe('toAtif', () => {
  it('writes a finished trajectory as ATIF v1.4 (golden file)', () => {
    for (const s of steps) trajectoryStepSchema.parse(s);
    trajectorySummarySchema.parse(summary);
    const atif = toAtif({
      sessionId: 'trj_golden',
      version: '0.1.0',
      agent: summary.agent,
      model: summary.model,
      toolSet: summary.toolSet,
      summary,
      steps,
    });
    const text = `${JSON.stringify(atif, null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('numbers steps from 1 after the prompts, answers every call id in the same step, and omits unknown counts', () => {
    const atif = toAtif({ sessionId: 's', version: 'v', agent: 'a', model: 'm', toolSet: 't', summary, steps });
    expect(atif.schema_version).toBe(ATIF_SCHEMA_VERSION);
    expect(atif.steps.map((s) => [s.step_id, s.source])).toEqual([
      [1, 'system'],
      [2, 'user'],
      [3, 'agent'],
      [4, 'agent'],
      [5, 'agent'],
    ]);
    for (const s of atif.steps) {
      const ids = new Set(s.tool_calls?.map((c) => c.tool_call_id));
      for (const r of s.observation?.results ?? []) expect(ids.has(r.source_call_id)).toBe(true);
    }
    // Refused arguments are an empty object in ATIF, their raw text kept in extra.
    expect(atif.steps[3]!.tool_calls![0]!.arguments).toEqual({});
    expect(atif.steps[3]!.metrics).toEqual({ prompt_tokens: 1300, completion_tokens: 20 });
    expect(atif.final_metrics).toEqual({
      total_prompt_tokens: 3900,
      total_completion_tokens: 90,
      total_cost_usd: 0.0081,
      total_steps: 5,
    });
  });

  it('exports a running trajectory without prompts, its totals unknown when a step did not report cost', () => {
    const atif = toAtif({ sessionId: 's', version: 'v', agent: 'a', model: 'm', toolSet: 't', summary: null, steps });
    expect(atif.steps[0]).toMatchObject({ step_id: 1, source: 'agent' });
    expect(atif.final_metrics).toEqual({ total_prompt_tokens: 3900, total_completion_tokens: 90, total_steps: 3 });
    expect(atif.steps[1]).not.toHaveProperty('reasoning_content');
    expect(atif.agent.extra).not.toHaveProperty('protocol');
  });
});
