import { describe, expect, it } from 'vitest';
import { thirdPartyExit, thirdPartySubmission, type ThirdPartyEnd } from '../../src';

const end = (over: Partial<ThirdPartyEnd>): ThirdPartyEnd => ({
  exhausted: null,
  timedOut: false,
  exitCode: 0,
  stderrTail: '',
  calls: [],
  ...over,
});

describe('thirdPartyExit', () => {
  it('names the budget limit the gateway enforced, whatever the agent did with the refusal', () => {
    const exhausted = { exitStatus: 'turn_limit' as const, message: 'GitBench budget exhausted: calls' };
    expect(thirdPartyExit(end({ exhausted, exitCode: 1, timedOut: true }))).toEqual({
      status: 'turn_limit',
      detail: 'GitBench budget exhausted: calls',
    });
  });

  it('ends a process killed at the wall time as time_limit', () => {
    expect(thirdPartyExit(end({ timedOut: true, exitCode: 137 })).status).toBe('time_limit');
  });

  it('blames a provider failure the agent stopped on on the provider (infrastructure), not on the agent', () => {
    const calls = [
      { errorKind: null, error: null },
      { errorKind: 'provider_transient' as const, error: '502 from the provider' },
    ];
    expect(thirdPartyExit(end({ exitCode: 1, calls }))).toEqual({
      status: 'model_error',
      detail: '502 from the provider',
    });
    // An agent that got over a failed call and ended cleanly ended by itself.
    expect(thirdPartyExit(end({ exitCode: 0, calls })).status).toBe('model_stopped');
  });

  it('calls any other failure the agent crashing, with its code or signal and its last words', () => {
    expect(thirdPartyExit(end({ exitCode: 3, stderrTail: 'a\nb\nc\nTypeError: boom\n' }))).toEqual({
      status: 'agent_crashed',
      detail: 'the agent exited with code 3: b | c | TypeError: boom',
    });
    expect(thirdPartyExit(end({ exitCode: 139 })).detail).toBe('the agent was killed by signal 11');
    expect(thirdPartyExit(end({ exitCode: null })).detail).toBe('the agent did not start');
  });
});

describe('thirdPartySubmission', () => {
  const answer = (content: string | null, tools = 0) => ({
    content,
    reasoning: null,
    toolCalls: Array.from({ length: tools }, (_, i) => ({ id: `c${i}`, name: 'bash', arguments: '{}' })),
    finishReason: 'stop',
  });
  it('is the last answered text that asked for no tool', () => {
    const calls = [
      { seq: 1, answer: answer('first', 0) },
      { seq: 3, answer: null },
      { seq: 2, answer: answer('final: 6', 0) },
      { seq: 4, answer: answer(null, 1) },
    ];
    expect(thirdPartySubmission(calls as never)).toBe('final: 6');
    expect(thirdPartySubmission([])).toBeNull();
  });
});
