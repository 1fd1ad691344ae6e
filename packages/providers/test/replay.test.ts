import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@gitbench/core';
import { createReplayProvider } from '../src/replay';
import { loadReplayIndex } from '../src/replay-sources';
import { ProviderRegistry } from '../src/registry';
import type { AnswerMode } from '@gitbench/core';

import { UPSTREAM_ROOT as UPSTREAM } from '../../core/test/fixtures/upstream-data';
const RESULTS = join(UPSTREAM, 'results');
const FIXTURES = join(UPSTREAM, 'fixtures');
const SOURCES = { dirs: [UPSTREAM] };

interface Envelope {
  model: string;
  output_mode: AnswerMode;
  results: Array<{ benchmark: string; scores: Array<Record<string, unknown> & { fixture_id: string }> }>;
}

const envelopes = readdirSync(RESULTS)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: join(RESULTS, f), data: JSON.parse(readFileSync(join(RESULTS, f), 'utf8')) as Envelope }));

const fixtureIds = readdirSync(FIXTURES).flatMap((domain) =>
  readdirSync(join(FIXTURES, domain))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ domain, id: f.replace(/\.yaml$/, '') })),
);

describe('replay over the upstream result envelopes', () => {
  it('covers both output modes of every upstream fixture', () => {
    expect(envelopes.map((e) => e.data.output_mode).sort()).toEqual(['json_schema', 'text']);
    expect(fixtureIds.length).toBe(68);
  });

  it('reproduces the recorded reply, tokens, cost and API time for every fixture in both modes', async () => {
    const provider = createReplayProvider(await loadReplayIndex(RESULTS, SOURCES));
    let checked = 0;
    for (const { data } of envelopes) {
      for (const { domain, id } of fixtureIds) {
        const recorded = data.results.find((b) => b.benchmark === domain)?.scores.find((s) => s.fixture_id === id);
        expect(recorded, `${domain}/${id} ${data.output_mode}`).toBeDefined();
        if (!recorded) continue;
        const result = await provider.complete({
          model: data.model,
          prompt: String(recorded.prompt ?? ''),
          outputMode: data.output_mode,
          // A permissive contract: replay is checked for fidelity; contract checks are tested elsewhere.
          ...(data.output_mode === 'json_schema' ? { schema: { type: 'object' } } : {}),
          fixture: { domain, id },
        });
        const transcript = recorded.transcript as Array<{ role: string; content: string }>;
        const reply = transcript.at(-1)?.content;
        expect(result.output).toBe(reply);
        if (data.output_mode === 'text') expect(result.output).toBe(recorded.model_output);
        else expect(result.output).toBe(recorded.raw_structured_output);
        expect(result.usage).toEqual({
          inputTokens: recorded.input_tokens,
          outputTokens: recorded.output_tokens,
          reasoningTokens: recorded.reasoning_tokens,
          totalTokens: recorded.total_tokens,
        });
        expect(result.cost).toEqual({ source: 'provider', usd: recorded.cost_usd });
        expect(result.apiDurationMs).toBe(recorded.api_duration_ms);
        expect(result.transcript.map((m) => m.content)).toEqual(transcript.map((m) => m.content));
        expect(result.route).toMatchObject({
          provider: 'replay',
          servedModel: 'mistralai/devstral-2512',
          simulated: false,
        });
        if (data.output_mode === 'json_schema') expect(result.structuredOutput).toEqual(recorded.parsed_payload);
        expect(result.route.replay?.recordedVerdict).toEqual({
          passed: recorded.passed,
          similarity: recorded.similarity,
          error: recorded.error,
        });
        checked++;
      }
    }
    expect(checked).toBe(136);
  });

  it('maps the commit ids of the recorded run onto the repository the request is about', async () => {
    const provider = createReplayProvider(await loadReplayIndex(RESULTS, SOURCES));
    const ours = [
      { hash: '1'.repeat(40), subject: 'change add operation' },
      { hash: '2'.repeat(40), subject: 'add feature X' },
      { hash: '3'.repeat(40), subject: 'Initial commit' },
    ];
    const request = {
      model: 'm',
      prompt: 'p',
      outputMode: 'text' as const,
      fixture: { domain: 'git_bisect', id: 'f001' },
    };
    const recorded = await provider.complete(request);
    expect(recorded.output).toContain('a8a5281');
    expect(recorded.flags).not.toContain('replay_commit_ids_mapped');
    const mapped = await provider.complete({ ...request, fixture: { ...request.fixture, commits: ours } });
    expect(mapped.output).toContain('**1111111**');
    expect(mapped.output).not.toMatch(/a8a5281|cba30c0|faf42b3/);
    expect(mapped.flags).toContain('replay_commit_ids_mapped');
    expect(mapped.requestConfig.commitIdsMapped).toMatchObject({ a8a5281: '1'.repeat(40) });
    // The transcript stays as recorded: it is the evidence of what the model said.
    expect(mapped.transcript.at(-1)?.content).toContain('a8a5281');
  });

  it('names the fixture when no answer was recorded for it', async () => {
    const provider = createReplayProvider(await loadReplayIndex(RESULTS, SOURCES));
    const error = await provider
      .complete({ model: 'm', prompt: 'p', outputMode: 'text', fixture: { domain: 'rebase', id: 'f099' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/rebase\/f099/);
  });

  it('resolves `replay:<file>` through the registry with the recorded model id', async () => {
    const file = envelopes.find((e) => e.data.output_mode === 'text')?.file as string;
    const target = await new ProviderRegistry({ replay: SOURCES }).resolve({ model: `replay:${file}` });
    expect(target.model).toBe('mistralai/devstral-2512');
    expect(target.provider.kind).toBe('replay');
    const result = await target.provider.complete({
      model: target.model,
      prompt: 'p',
      outputMode: 'text',
      fixture: { domain: 'git_show', id: 'f001' },
    });
    expect(result.output.length).toBeGreaterThan(0);
    await expect(
      target.provider.complete({
        model: target.model,
        prompt: 'p',
        outputMode: 'json_schema',
        schema: {},
        fixture: { domain: 'git_show', id: 'f001' },
      }),
    ).rejects.toThrow(/json_schema.*git_show\/f001/);
  });

  it('rejects a file that is not a result envelope', async () => {
    await expect(loadReplayIndex(join(FIXTURES, 'rebase', 'f001.yaml'), SOURCES)).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(loadReplayIndex('/nonexistent/results.json', SOURCES)).rejects.toThrow(
      /lies outside the configured replay directories/,
    );
    await expect(loadReplayIndex('nonexistent-results.json', SOURCES)).rejects.toThrow(
      /does not exist in the configured replay directories/,
    );
  });
});
