import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@gitbench/core';
import {
  createMockProvider,
  createOracleProvider,
  createSimulatedProvider,
  MOCK_ANSWER,
  SIMULATED_WRONG_ANSWER,
} from '../src/scripted';
import { checkStructuredOutput } from '../src/structured';

const SCHEMA = {
  type: 'object',
  properties: { branch: { type: 'string' } },
  required: ['branch'],
  additionalProperties: false,
};
const fixture = {
  domain: 'branch_cleanup',
  id: 'f001',
  difficulty: 'medium' as const,
  expected: 'main',
  expectedStructured: { branch: 'main' },
};

describe('mock and oracle', () => {
  it('mock answers the same wrong answer, failing any contract in json_schema mode', async () => {
    const mock = createMockProvider();
    expect((await mock.complete({ model: 'mock', prompt: 'p', outputMode: 'text' })).output).toBe(MOCK_ANSWER);
    const structured = await mock.complete({ model: 'mock', prompt: 'p', outputMode: 'json_schema', schema: SCHEMA });
    expect(structured.qualityFailure?.code).toBe('schema_violation');
    expect(structured.cost).toEqual({ source: 'unknown', usd: null });
  });

  it('oracle answers the expected answer the caller passes in', async () => {
    const oracle = createOracleProvider();
    expect((await oracle.complete({ model: 'oracle', prompt: 'p', outputMode: 'text', fixture })).output).toBe('main');
    const structured = await oracle.complete({
      model: 'oracle',
      prompt: 'p',
      outputMode: 'json_schema',
      schema: SCHEMA,
      fixture,
    });
    expect(structured.structuredOutput).toEqual({ branch: 'main' });
    await expect(oracle.complete({ model: 'oracle', prompt: 'p', outputMode: 'text' })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
  });
});

describe('simulated provider', () => {
  it('is labelled simulated in its name, route and request configuration', async () => {
    const sim = createSimulatedProvider({ seed: 1 });
    const result = await sim.complete({ model: 'simulated:1', prompt: 'p', outputMode: 'text', fixture });
    expect(sim.name).toMatch(/^simulated/);
    expect(result.route).toMatchObject({ provider: 'simulated', simulated: true });
    expect(result.requestConfig).toMatchObject({ simulated: true, seed: 1 });
  });

  it('is deterministic per (seed, fixture, trial) and varies across trials', async () => {
    const answers = async (seed: number) => {
      const sim = createSimulatedProvider({ seed, correctness: { medium: 0.5 } });
      const out: string[] = [];
      for (let trial = 1; trial <= 20; trial++)
        out.push((await sim.complete({ model: 's', prompt: 'p', outputMode: 'text', fixture, trial })).output);
      return out;
    };
    const first = await answers(42);
    expect(await answers(42)).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['main', SIMULATED_WRONG_ANSWER]));
    expect(await answers(43)).not.toEqual(first);
  });

  it('answers correctly at about the configured rate per difficulty', async () => {
    const sim = createSimulatedProvider({ seed: 'rate', correctness: { easy: 0.9, hard: 0.2 } });
    const rate = async (difficulty: 'easy' | 'hard') => {
      let correct = 0;
      for (let i = 0; i < 400; i++) {
        const r = await sim.complete({
          model: 's',
          prompt: 'p',
          outputMode: 'text',
          fixture: { ...fixture, id: `f${i}`, difficulty },
        });
        if (r.output === 'main') correct++;
      }
      return correct / 400;
    };
    expect(await rate('easy')).toBeGreaterThan(0.84);
    expect(await rate('easy')).toBeLessThan(0.96);
    expect(await rate('hard')).toBeGreaterThan(0.14);
    expect(await rate('hard')).toBeLessThan(0.26);
  });

  it('rejects probabilities outside 0..1', () => {
    expect(() => createSimulatedProvider({ seed: 1, correctness: { easy: 1.5 } })).toThrow(/easy/);
  });
});

describe('checkStructuredOutput', () => {
  it('requires bare JSON that satisfies the contract', () => {
    expect(checkStructuredOutput('{"branch":"main"}', SCHEMA)).toEqual({ ok: true, value: { branch: 'main' } });
    expect(checkStructuredOutput('```json\n{"branch":"main"}\n```', SCHEMA)).toMatchObject({
      ok: false,
      failure: { code: 'malformed_json' },
    });
    expect(checkStructuredOutput('{"branch":1}', SCHEMA)).toMatchObject({
      ok: false,
      failure: { code: 'schema_violation', message: expect.stringMatching(/\/branch must be string/) },
    });
    expect(checkStructuredOutput('{"branch":"main","extra":1}', SCHEMA)).toMatchObject({
      ok: false,
      failure: { code: 'schema_violation' },
    });
  });
});
