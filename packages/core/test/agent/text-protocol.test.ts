import { describe, expect, it } from 'vitest';
import { callAsTextBlock, parseTextProtocol, textProtocolReply } from '../../src/agent/text-protocol';

describe('the text protocol', () => {
  it('reads back what an agent without a model writes: a command, and a submission with its answer', () => {
    const command = 'git log --oneline | head -3\ngit status';
    expect(parseTextProtocol(textProtocolReply('Looking around.', callAsTextBlock('bash', { command })!))).toEqual({
      ok: true,
      kind: 'bash',
      command,
    });
    expect(
      parseTextProtocol(textProtocolReply(null, callAsTextBlock('submit', { answer: 'abc1234\nsecond line' })!)),
    ).toEqual({ ok: true, kind: 'submit', answer: 'abc1234\nsecond line' });
  });

  it('has no block for a tool it cannot express, nor for arguments of the wrong kind', () => {
    expect(callAsTextBlock('write_file', { path: 'a', content: 'b' })).toBeNull();
    expect(callAsTextBlock('bash', { command: 42 })).toBeNull();
    expect(callAsTextBlock('submit', {})).toBe('submit\n');
  });
});
