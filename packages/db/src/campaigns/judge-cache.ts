import type { HistoryJudgeCache, HistoryJudgement, JudgeCache, JudgeVerdict } from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';

function cacheKeyParts(campaignId: string, key: string, kind: 'judge' | 'ggb-judge') {
  const [prefix, inputHash, outputHash, judgeConfigHash] = key.split(':');
  if (prefix !== kind || !inputHash || !outputHash || !judgeConfigHash)
    throw new Error(`not a ${kind} cache key: ${key}`);
  return { campaignId, inputHash, outputHash, judgeConfigHash };
}

/**
 * Judge decisions cached within a campaign by (fixture input hash, output hash, judge config hash),
 * as the methodology requires: the same answer to the same fixture is judged once per campaign, so
 * judge variance stays separate from target variance.
 */
export class PostgresJudgeCache implements JudgeCache {
  constructor(
    private readonly db: Db,
    private readonly campaignId: string,
  ) {}

  private parts(key: string) {
    return cacheKeyParts(this.campaignId, key, 'judge');
  }

  async get(key: string): Promise<JudgeVerdict | undefined> {
    const row = await this.db.judgeCache.findUnique({
      where: { campaignId_inputHash_outputHash_judgeConfigHash: this.parts(key) },
    });
    return row ? (row.members as unknown as JudgeVerdict) : undefined;
  }

  async set(key: string, verdict: JudgeVerdict): Promise<void> {
    if (verdict.status !== 'scored') return;
    const id = this.parts(key);
    await this.db.judgeCache.upsert({
      where: { campaignId_inputHash_outputHash_judgeConfigHash: id },
      create: {
        ...id,
        aggregateScore: verdict.score,
        passed: verdict.passed,
        members: verdict as unknown as Prisma.InputJsonValue,
      },
      update: {},
    });
  }
}

/**
 * GitGoodBench's history judgements in the same table: the output hash is the hash of both histories and
 * the judge config hash names the history prompt, so they never meet an llm_judge verdict. Only scored
 * judgements are kept (a judge failure is asked again).
 */
export class PostgresHistoryJudgeCache implements HistoryJudgeCache {
  constructor(
    private readonly db: Db,
    private readonly campaignId: string,
  ) {}

  async get(key: string): Promise<HistoryJudgement | undefined> {
    const row = await this.db.judgeCache.findUnique({
      where: { campaignId_inputHash_outputHash_judgeConfigHash: cacheKeyParts(this.campaignId, key, 'ggb-judge') },
    });
    return row ? (row.members as unknown as HistoryJudgement) : undefined;
  }

  async set(key: string, judgement: HistoryJudgement): Promise<void> {
    if (judgement.status !== 'scored') return;
    const id = cacheKeyParts(this.campaignId, key, 'ggb-judge');
    await this.db.judgeCache.upsert({
      where: { campaignId_inputHash_outputHash_judgeConfigHash: id },
      create: {
        ...id,
        aggregateScore: judgement.solved ? 1 : 0,
        passed: judgement.solved,
        members: judgement as unknown as Prisma.InputJsonValue,
      },
      update: {},
    });
  }
}
