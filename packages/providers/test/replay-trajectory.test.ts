import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAtifTrajectory, replayTrajectoryChat } from '../src/replay-trajectory';
import type { AgentChatRequest, AgentMessage } from '../src/types';

// The ATIF golden file core's exporter must produce: a bash call, a write_file the model sent broken, a submit.
const golden = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../core/test/agent/atif.golden.json'), 'utf8'),
) as unknown;

const request = (assistantTurns: number, protocol: 'native' | 'text' = 'native'): AgentChatRequest => ({
  model: 'replay:golden.json',
  protocol,
  tools: [],
  messages: [
    { role: 'user', content: 'task' },
    ...Array.from({ length: assistantTurns }, (): AgentMessage => ({ role: 'assistant', content: null })),
  ],
});

describe('replaying an ATIF trajectory in agent mode', () => {
  const trajectory = parseAtifTrajectory(golden, 'golden.json');

  it('reads one turn per agent step, with the raw text of arguments the model sent broken', () => {
    expect(trajectory.model).toBe('openai/gpt-test');
    expect(trajectory.turns.map((t) => t.calls)).toEqual([
      [{ name: 'bash', arguments: '{"command":"git merge feature"}' }],
      [{ name: 'write_file', arguments: '{"path":"a.txt","cont' }],
      [{ name: 'submit', arguments: '{"answer":"done"}' }],
    ]);
  });

  it(
    'answers the turn the conversation is at, with the recorded ' +
      'tokens and cost, and stops with no call past the end',
    () => {
      const second = replayTrajectoryChat(trajectory, request(1));
      expect(second.toolCalls).toEqual([{ id: 'replay_1_0', name: 'write_file', arguments: '{"path":"a.txt","cont' }]);
      expect(second.usage).toMatchObject({ inputTokens: 1300, outputTokens: 20 });
      expect(second.cost).toEqual({ source: 'unknown', usd: null });
      expect(replayTrajectoryChat(trajectory, request(0)).cost).toEqual({ source: 'provider', usd: 0.0034 });
      const after = replayTrajectoryChat(trajectory, request(3));
      expect(after.toolCalls).toEqual([]);
      expect(after.finishReason).toBe('stop');
    },
  );

  it('speaks the text protocol as one fenced bash block', () => {
    expect(replayTrajectoryChat(trajectory, request(0, 'text'))).toMatchObject({
      toolCalls: [],
      content: 'Merging the feature branch.\n```bash\ngit merge feature\n```',
    });
    expect(replayTrajectoryChat(trajectory, request(2, 'text')).content).toBe(
      'Resolved and committed.\n```bash\nsubmit\ndone\n```',
    );
  });

  it('names what is wrong with a file that is not ATIF, never quoting it', () => {
    expect(() => parseAtifTrajectory({ schema_version: 'ATIF-v1.4', steps: 'secret-content' }, 'x.json')).toThrow(
      /x\.json is not an ATIF v1 trajectory \(steps: /,
    );
    expect(() =>
      parseAtifTrajectory({ schema_version: 'ATIF-v1.4', steps: [{ source: 'user', message: 'hi' }] }, 'y.json'),
    ).toThrow(/y\.json holds no agent step/);
    try {
      parseAtifTrajectory({ schema_version: 'ATIF-v1.4', steps: 'secret-content' }, 'x.json');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-content');
    }
  });
});
