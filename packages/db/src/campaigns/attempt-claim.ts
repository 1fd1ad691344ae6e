import { randomUUID } from 'node:crypto';
import type { Mode } from '@gitbench/core';
import { rawQuery, type Db } from '../client';
import { ACTIVE_CAMPAIGN_STATUSES } from './dispatch';
import { SqlParams } from './sql-params';

export interface Claim {
  attemptId: string;
  claimToken: string;
  tryNumber: number;
  startedAt: Date;
}

/** What a worker needs of the attempt it claimed; the rest (fixture, campaign, target) never changes once planned. */
export interface ClaimedAttempt extends Claim {
  campaignId: string;
  targetId: string;
  fixtureSnapshotId: string;
  trial: number;
  modelId: string;
  outputMode: Mode;
}

/** QUEUED -> RUNNING if nobody else got there first (one statement); null means "not yours, do nothing". */
export async function claimAttempt(db: Db, attemptId: string, workerId: string): Promise<ClaimedAttempt | null> {
  const claimToken = randomUUID();
  const startedAt = new Date();
  const sql = new SqlParams();
  const at = sql.param(startedAt.toISOString(), 'timestamp(3)');
  // One statement on the pool: Prisma's updateManyAndReturn is a transaction of three statements and a
  // query compilation, paid by every attempt of every campaign.
  const {
    rows: [row],
  } = await rawQuery<
    Omit<ClaimedAttempt, 'claimToken' | 'startedAt' | 'tryNumber' | 'attemptId'> & { tryCount: number }
  >(
    db,
    `UPDATE "Attempt" a SET status = 'RUNNING', "claimedBy" = ${sql.param(workerId, 'text')},
      "claimToken" = ${sql.param(claimToken, 'text')},
            "heartbeatAt" = ${at}, "startedAt" = ${at}, "tryCount" = a."tryCount" + 1
       FROM "Campaign" c
      WHERE a.id = ${sql.param(attemptId, 'text')} AND a.status = 'QUEUED' AND c.id = a."campaignId"
        AND c.status IN (${ACTIVE_CAMPAIGN_STATUSES.map((s) => `'${s}'`).join(', ')})
      RETURNING a."tryCount", a."campaignId", a."targetId", a."fixtureSnapshotId", a.trial, a."modelId",
        a."outputMode"::text AS "outputMode"`,
    sql.values,
  );
  if (!row) return null;
  const { tryCount, ...attempt } = row;
  return { attemptId, claimToken, tryNumber: tryCount, startedAt, ...attempt };
}

export type HeartbeatVerdict = 'owned' | 'lost' | 'cancelled';

/** Extends the claim; tells the runner to stop when it lost the attempt or the campaign was cancelled. */
export async function heartbeatAttempt(db: Db, claim: Claim): Promise<HeartbeatVerdict> {
  const won = await db.attempt.updateMany({
    where: { id: claim.attemptId, status: 'RUNNING', claimToken: claim.claimToken },
    data: { heartbeatAt: new Date() },
  });
  if (won.count !== 1) return 'lost';
  const campaign = await db.campaign.findFirst({
    where: { attempts: { some: { id: claim.attemptId } } },
    select: { status: true },
  });
  return campaign?.status === 'CANCELLED' ? 'cancelled' : 'owned';
}

/** The condition every write of a claimed attempt carries: it is still RUNNING under this claim. */
export const ownedBy = (sql: SqlParams, claim: Claim) =>
  `"id" = ${sql.param(claim.attemptId, 'text')} AND "status" = ` +
  `'RUNNING' AND "claimToken" = ${sql.param(claim.claimToken, 'text')}`;
