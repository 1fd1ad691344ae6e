import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyJudgeCacheKey, judgeHistories, scriptedHistoryJudge, type GgbCommit } from '@gitbench/core';
import { PostgresHistoryJudgeCache, PostgresJudgeCache } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'history_judge_cache');
});
afterAll(async () => {
  await t?.drop();
});

const commit = (subject: string): GgbCommit => ({
  sha: '',
  subject,
  message: subject,
  files: ['f.py'],
  diff: `+${subject}\n`,
});

describe('GitGoodBench history judgements in the judge cache', () => {
  it('keeps a scored judgement per campaign and answers it back; a failed one is not kept', async () => {
    const campaignId = 'cmp_hist';
    const store = new PostgresHistoryJudgeCache(t.db, campaignId);
    const original = [commit('Add a'), commit('Add b')];
    const agent = [commit('Add a'), commit('Add b'), commit('Add c')];
    const cache = { store, fixtureInputHash: 'in', judgeConfigHash: 'cfg' };
    const first = await judgeHistories({ original, agent, ask: scriptedHistoryJudge({ original, agent }), cache });
    expect(first).toMatchObject({ status: 'scored', solved: true });
    const again = await judgeHistories({ original, agent, ask: () => Promise.reject(new Error('not asked')), cache });
    expect(again).toEqual(first);
    const key = historyJudgeCacheKey({ fixtureInputHash: 'in', original: 'x', agent: 'y', judgeConfigHash: 'cfg' });
    expect(await store.get(key)).toBeUndefined();
    await store.set(key, { status: 'unscored', reason: 'down', verdicts: [] });
    expect(await store.get(key)).toBeUndefined();
    // The llm_judge cache refuses a history key, and the other way round.
    await expect(new PostgresJudgeCache(t.db, campaignId).get(key)).rejects.toThrow(/not a judge cache key/);
    await expect(store.get('judge:a:b:c')).rejects.toThrow(/not a ggb-judge cache key/);
  });
});
