import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCallRecord } from '@gitbench/core';
import { claimAttempt, finishAttempt, readGatewayCalls, releaseAttempt, MAX_STORED_CALL_BYTES } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { queuedAttempt } from './queued-attempt';

/**
 * A third-party agent's gateway calls are stored by the statement that writes the try (finishAttempt,
 * releaseAttempt): with the try or not at all, and capped.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

const agentAttempt = () => queuedAttempt(t.db, { modelId: 'oracle', outputMode: 'agent', profile: 'builtin' });

function call(seq: number, over: Partial<GatewayCallRecord> = {}): GatewayCallRecord {
  const at = new Date(Date.UTC(2026, 10, 27, 12, 0, seq)).toISOString();
  return {
    seq,
    protocol: 'messages',
    requestedModel: 'claude-sonnet-4-5',
    model: 'acme/coder',
    request: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: `turn ${seq}` }] },
    response: { id: `msg_${seq}`, content: [{ type: 'text', text: 'ok' }] },
    status: 200,
    error: null,
    errorKind: null,
    tools: ['Bash'],
    toolResults: seq > 1 ? [{ callId: `toolu_${seq - 1}`, name: 'Bash', content: 'done\n', isError: false }] : [],
    answer: {
      content: null,
      reasoning: null,
      toolCalls: [{ id: `toolu_${seq}`, name: 'Bash', arguments: '{"command":"git status"}' }],
      finishReason: 'tool_calls',
    },
    inputTokens: 1000 * seq,
    outputTokens: 20,
    reasoningTokens: null,
    costUsd: 0.001,
    costEstimated: true,
    gatewayMs: 0.4,
    providerMs: 812.5,
    hookMs: 31.2,
    retries: seq === 2 ? 1 : 0,
    streamed: true,
    startedAt: at,
    endedAt: new Date(Date.parse(at) + 900).toISOString(),
    ...over,
  };
}

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'gwcalls');
});
afterAll(async () => {
  await t?.drop();
});

describe('gateway call storage', () => {
  it('stores every call with the finished try, in one statement, and reads them back whole', async () => {
    const attemptId = await agentAttempt();
    const claim = (await claimAttempt(t.db, attemptId, 'w1'))!;
    const calls = [
      call(1),
      call(2),
      call(3, {
        status: 429,
        errorKind: 'provider_transient',
        error: 'rate limited',
        answer: null,
        response: null,
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
        costEstimated: false,
      }),
    ];
    const outcome = {
      status: 'VALID_PASS' as const,
      passed: true,
      score: 1,
      record: { errorClass: null, errorMessage: null, gatewayCalls: calls },
    };
    expect(await finishAttempt(t.db, claim, 'w1', outcome)).toBe(true);
    const stored = await readGatewayCalls(t.db, attemptId);
    expect(stored.map((s) => s.record)).toEqual(calls);
    expect(stored.every((s) => s.cutBytes === 0)).toBe(true);
    const rows = await t.db.gatewayCall.findMany({ where: { attemptId }, orderBy: { seq: 'asc' } });
    expect(
      rows.map((r) => [
        r.tryNumber,
        r.seq,
        r.status,
        r.errorKind,
        r.toolCalls,
        r.toolResults,
        r.retries,
        r.inputTokens,
        r.protocol,
      ]),
    ).toEqual([
      [1, 1, 200, null, 1, 0, 0, 1000, 'messages'],
      [1, 2, 200, null, 1, 1, 1, 2000, 'messages'],
      [1, 3, 429, 'provider_transient', 0, 1, 0, null, 'messages'],
    ]);
    // Times are stored as UTC wall time, as Prisma reads them back.
    expect(rows[0]!.startedAt.toISOString()).toBe(calls[0]!.startedAt);
    expect(rows[2]!.providerMs).toBe(812.5);
    // A second finish of the same claim (a duplicate delivery) writes neither the try nor its calls again.
    expect(await finishAttempt(t.db, claim, 'w1', outcome)).toBe(false);
    expect(await t.db.gatewayCall.count({ where: { attemptId } })).toBe(3);
  });

  it('keeps the calls of a try given back, per try, and the latest try is read unless one is named', async () => {
    const attemptId = await agentAttempt();
    const first = (await claimAttempt(t.db, attemptId, 'w1'))!;
    const released = await releaseAttempt(
      t.db,
      first,
      'w1',
      { errorClass: 'given_back', errorMessage: 'shutdown', gatewayCalls: [call(1), call(2)] },
      'send-now',
    );
    expect(released.released).toBe(true);
    const second = (await claimAttempt(t.db, attemptId, 'w2'))!;
    expect(second.tryNumber).toBe(2);
    expect(
      await finishAttempt(t.db, second, 'w2', {
        status: 'VALID_FAIL',
        passed: false,
        score: 0,
        record: { gatewayCalls: [call(1)] },
      }),
    ).toBe(true);
    expect((await readGatewayCalls(t.db, attemptId)).map((c) => c.record.seq)).toEqual([1]);
    expect((await readGatewayCalls(t.db, attemptId, { tryNumber: 1 })).map((c) => c.record.seq)).toEqual([1, 2]);
    // Deleting the attempt takes its tries and their calls with it.
    await t.db.attempt.delete({ where: { id: attemptId } });
    expect(await t.db.gatewayCall.count({ where: { attemptId } })).toBe(0);
  });

  it(
    'caps a large request, keeping the record readable and ' +
      'saying how much went; takes NUL bytes and a long model name',
    async () => {
      const attemptId = await agentAttempt();
      const claim = (await claimAttempt(t.db, attemptId, 'w1'))!;
      const big = 'x'.repeat(3 * MAX_STORED_CALL_BYTES);
      const tiny = Array.from({ length: 600_000 }, () => 'a');
      const calls = [
        call(1, {
          request: { messages: [{ role: 'user', content: big }] },
          requestedModel: `m\u0000${'y'.repeat(5000)}`,
        }),
        call(2, { request: { junk: tiny } }),
      ];
      expect(
        await finishAttempt(t.db, claim, 'w1', {
          status: 'VALID_FAIL',
          passed: false,
          score: 0,
          record: { gatewayCalls: calls },
        }),
      ).toBe(true);
      const [one, two] = await readGatewayCalls(t.db, attemptId);
      expect(one!.cutBytes).toBeGreaterThan(2 * MAX_STORED_CALL_BYTES);
      const content = (one!.record.request as { messages: { content: string }[] }).messages[0]!.content;
      expect(content).toMatch(/^x+… \[\d+ characters cut: the stored gateway call cap\]$/);
      expect(one!.record.answer).toEqual(calls[0]!.answer);
      // Cutting the longest strings cannot shrink a request of tiny ones: it is replaced by a note.
      expect(two!.record.request).toEqual({
        notStored: expect.stringMatching(/^the request \(\d+ bytes of JSON\) could not be cut/),
      });
      expect(two!.record.toolResults).toEqual(calls[1]!.toolResults);
      const rows = await t.db.gatewayCall.findMany({ where: { attemptId }, orderBy: { seq: 'asc' } });
      expect(rows[0]!.bodyBytes).toBeLessThanOrEqual(MAX_STORED_CALL_BYTES);
      expect(rows[0]!.body.length).toBeLessThan(rows[0]!.bodyBytes / 10);
      expect(rows[0]!.requestedModel).toHaveLength(200);
      expect(rows[0]!.requestedModel!.startsWith('m\ufffd')).toBe(true);
    },
  );
});
