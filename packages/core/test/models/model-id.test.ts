import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  formatModelId,
  isControlModelId,
  isSimulatedModelId,
  parseModelId,
  REASONING_EFFORTS,
} from '../../src/models';

describe('parseModelId', () => {
  it.each([
    ['openai/o3-mini#high', 'openai/o3-mini', 'high'],
    ['o3-mini', 'o3-mini', undefined],
    ['llama3.1:8b', 'llama3.1:8b', undefined],
    ['qwen3:latest', 'qwen3:latest', undefined],
    ['qwen3:high', 'qwen3', 'high'],
    ['qwen3:8b:none', 'qwen3:8b', 'none'],
    ['openai/gpt-5#xhigh', 'openai/gpt-5', 'xhigh'],
    ['anthropic/claude#max', 'anthropic/claude', 'max'],
    ['openai/gpt-oss-120b:minimal', 'openai/gpt-oss-120b', 'minimal'],
    ['a#b#low', 'a#b', 'low'],
  ])('%s → base %s, effort %s', (raw, baseModel, effort) => {
    expect(parseModelId(raw)).toEqual({ raw, baseModel, ...(effort ? { effort } : {}) });
  });

  it('knows exactly the seven levels', () => {
    expect(REASONING_EFFORTS).toEqual(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
  });

  it('keeps a colon segment that is not a level, but rejects an unknown level after #', () => {
    expect(parseModelId('mistral:instruct').baseModel).toBe('mistral:instruct');
    expect(() => parseModelId('o3-mini#extreme')).toThrow(ConfigurationError);
    expect(() => parseModelId('o3-mini#extreme')).toThrow(/extreme.*none, minimal/);
    expect(() => parseModelId('#high')).toThrow(ConfigurationError);
    expect(() => parseModelId('  ')).toThrow(ConfigurationError);
  });

  it('is case-sensitive: HIGH is not a level, so a colon tag stays a tag', () => {
    expect(parseModelId('qwen3:HIGH')).toEqual({ raw: 'qwen3:HIGH', baseModel: 'qwen3:HIGH' });
  });

  it('formats the canonical #-form', () => {
    expect(formatModelId(parseModelId('qwen3:high'))).toBe('qwen3#high');
    expect(formatModelId(parseModelId('llama3.1:8b'))).toBe('llama3.1:8b');
  });
});

describe('isSimulatedModelId', () => {
  it.each(['simulated', 'simulated:7', 'simulated:demo#high', 'sim', 'sim:3'])('%s is simulated', (id) => {
    expect(isSimulatedModelId(id)).toBe(true);
  });
  it.each(['oracle', 'mock', 'simple-model', 'openai/simulated', 'simulatedx', 'replay:sim.json'])(
    '%s is not',
    (id) => {
      expect(isSimulatedModelId(id)).toBe(false);
    },
  );
});

describe('isControlModelId', () => {
  it('is true for the built-in controls with any effort, false for real models and replays', () => {
    expect(
      ['oracle', 'mock', 'nop', 'oracle#high', 'simulated', 'simulated:7', 'sim'].filter((m) => !isControlModelId(m)),
    ).toEqual([]);
    expect(['openai/gpt-5', 'oracle-7b', 'replay:results.json', 'acme/nop', 'mocked'].filter(isControlModelId)).toEqual(
      [],
    );
  });
});
