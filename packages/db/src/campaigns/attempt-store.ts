import { randomUUID } from 'node:crypto';
import { newId, type GatewayCallRecord, type Mode } from '@gitbench/core';
import { rawQuery, type Db } from '../client';
import type { AttemptStatus, Prisma } from '../generated/prisma/client';
import { ACTIVE_CAMPAIGN_STATUSES } from './dispatch';
import { gatewayCallsInsert } from '../trajectories/gateway-call-store';
import { cancelTrajectoryUpdate } from '../trajectories/trajectory-store';
import { SqlParams } from './sql-params';

/**
 * Postgres, not the queue, decides who runs an attempt. BullMQ delivers at least once and a Redis
 * restart may lose jobs, so every state change here is a conditional update that tells the caller
 * whether it won: a duplicate delivery, a late worker or a reaped attempt can never write twice.
 */

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

/**
 * What finishAttempt writes for one ended attempt: its row's status, score and summary columns, and its
 * try's record. Not core's AttemptOutcome (the vocabulary of endings, PASS to CANCELLED): this is a write.
 */
export interface AttemptWrite {
  status: Exclude<AttemptStatus, 'QUEUED' | 'RUNNING'>;
  passed?: boolean | null;
  score?: number | null;
  /** Columns copied onto the attempt for fast queries; the full record goes to the try row. */
  summary?: Partial<
    Pick<
      Prisma.AttemptUncheckedUpdateInput,
      | 'inputHash'
      | 'promptHash'
      | 'expectedHash'
      | 'scorerConfigHash'
      | 'requestConfigHash'
      | 'outputHash'
      | 'inputTokens'
      | 'outputTokens'
      | 'reasoningTokens'
      | 'totalTokens'
      | 'costUsd'
      | 'costEstimated'
      | 'apiDurationMs'
      | 'judgeCalls'
      | 'judgeTotalTokens'
      | 'judgeCostUsd'
      | 'wallDurationMs'
      | 'sandboxImage'
      | 'errorClass'
      | 'errorMessage'
      | 'productVersion'
      | 'productDirty'
    >
  >;
  /** The evidence of this try, stored once and never overwritten. */
  record: Omit<
    Prisma.AttemptTryUncheckedCreateInput,
    'id' | 'attemptId' | 'tryNumber' | 'workerId' | 'status' | 'startedAt' | 'gatewayCalls'
  > & {
    /** A third-party agent's calls through the model gateway: GatewayCall rows written with the try's. */
    gatewayCalls?: GatewayCallRecord[];
  };
}

/** The SQL type of every column an outcome may set; a key not listed here is refused, never dropped. */
const SUMMARY_COLUMNS: Record<keyof NonNullable<AttemptWrite['summary']>, string> = {
  inputHash: 'text',
  promptHash: 'text',
  expectedHash: 'text',
  scorerConfigHash: 'text',
  requestConfigHash: 'text',
  outputHash: 'text',
  inputTokens: 'int',
  outputTokens: 'int',
  reasoningTokens: 'int',
  totalTokens: 'int',
  costUsd: 'float8',
  costEstimated: 'boolean',
  apiDurationMs: 'int',
  judgeCalls: 'int',
  judgeTotalTokens: 'int',
  judgeCostUsd: 'float8',
  wallDurationMs: 'int',
  sandboxImage: 'text',
  errorClass: 'text',
  errorMessage: 'text',
  productVersion: 'text',
  productDirty: 'boolean',
};
const RECORD_COLUMNS: Record<Exclude<keyof AttemptWrite['record'], 'finishedAt' | 'gatewayCalls'>, string> = {
  errorClass: 'text',
  errorMessage: 'text',
  evidence: 'jsonb',
  productVersion: 'text',
  productDirty: 'boolean',
};

/**
 * Writes the result only if this worker still owns the attempt. Attempt row and try row are written
 * by one statement (the try is inserted only from the row the conditional update returned), so an
 * attempt never has an outcome without its evidence, nor evidence counted twice. One statement
 * instead of an interactive transaction: this runs once per attempt, and the round trips and
 * transaction bookkeeping were a good part of a worker's time on attempts scored on text.
 * `trajectory: 'cancelled'` ends the try's agent trajectory as cancelled in the same statement.
 */
export async function finishAttempt(
  db: Db,
  claim: Claim,
  workerId: string,
  outcome: AttemptWrite,
  opts: { trajectory?: 'cancelled' } = {},
): Promise<boolean> {
  const sql = new SqlParams();
  const finishedAt = sql.now();
  const status = sql.param(outcome.status, '"AttemptStatus"');
  const sets = [
    `"status" = ${status}`,
    `"passed" = ${sql.param(outcome.passed ?? null, 'boolean')}`,
    `"score" = ${sql.param(outcome.score ?? null, 'float8')}`,
    `"finishedAt" = ${finishedAt}`,
    `"claimToken" = NULL`,
    `"heartbeatAt" = NULL`,
  ];
  for (const [key, value] of Object.entries(outcome.summary ?? {})) {
    if (value === undefined) continue;
    const type = SUMMARY_COLUMNS[key as keyof typeof SUMMARY_COLUMNS];
    if (!type) throw new Error(`finishAttempt: an outcome cannot set the attempt's ${key}`);
    sets.push(`"${key}" = ${sql.param(value, type)}`);
  }
  const insertTry = tryInsert(sql, claim, workerId, status, finishedAt, outcome.record);
  const insertCalls = gatewayCallsInsert(sql, 'tried', outcome.record.gatewayCalls);
  const endTrajectory = opts.trajectory === 'cancelled' ? cancelTrajectoryUpdate(sql, claim.tryNumber) : null;
  const { rows } = await rawQuery<{ id: string }>(
    db,
    `WITH won AS (UPDATE "Attempt" SET ${sets.join(', ')} WHERE ${ownedBy(sql, claim)} RETURNING "id"),
     tried AS (${insertTry} RETURNING "id", "attemptId", "tryNumber")
     ${insertCalls ? `, called AS (${insertCalls})` : ''}
     ${endTrajectory ? `, ended AS (${endTrajectory})` : ''}
     SELECT "id" FROM tried`,
    sql.values,
  );
  return rows.length === 1;
}

const ownedBy = (sql: SqlParams, claim: Claim) =>
  `"id" = ${sql.param(claim.attemptId, 'text')} AND "status" = ` +
  `'RUNNING' AND "claimToken" = ${sql.param(claim.claimToken, 'text')}`;

/** INSERT of the try row, from the attempt row a `won` CTE returned: no try without its attempt's change. */
function tryInsert(
  sql: SqlParams,
  claim: Claim,
  workerId: string,
  status: string,
  finishedAt: string,
  record: AttemptWrite['record'],
): string {
  const columns = ['"id"', '"attemptId"', '"tryNumber"', '"workerId"', '"status"', '"startedAt"', '"finishedAt"'];
  const values = [
    sql.param(newId('attemptTry'), 'text'),
    'won."id"',
    sql.param(claim.tryNumber, 'int'),
    sql.param(workerId, 'text'),
    status,
    sql.param(claim.startedAt.toISOString(), 'timestamp(3)'),
    finishedAt,
  ];
  for (const [key, value] of Object.entries(record)) {
    // The calls are rows of their own (gatewayCallsInsert), written by the same statement.
    if (value === undefined || key === 'gatewayCalls') continue;
    const type = RECORD_COLUMNS[key as keyof typeof RECORD_COLUMNS];
    if (!type) throw new Error(`an outcome cannot set the try's ${key}`);
    columns.push(`"${key}"`);
    values.push(sql.param(value, type));
  }
  return `INSERT INTO "AttemptTry" (${columns.join(', ')}) SELECT ${values.join(', ')} FROM won`;
}

/** Why a claimed attempt goes back to the queue without an outcome, and what its try already cost. */
export type ReleaseReason = Pick<
  AttemptWrite['record'],
  'evidence' | 'gatewayCalls' | 'productVersion' | 'productDirty'
> & {
  errorClass: string;
  errorMessage: string;
};

/**
 * Who sends a released attempt to a worker again: this call, at once, with a new dispatch number that
 * the dispatch cap does not count (shutdown); the caller, at once, through redispatchAttempts and so
 * counted (an error in the worker; until it does, the row waits for the reaper's next pass, in case the
 * caller dies first); or the reaper's next pass (a lost worker).
 */
export type ReleaseNext = 'send-now' | 'retry-now' | 'reaper-sends';

/**
 * Gives a claimed attempt back to the queue without an outcome. The try is kept, as an
 * infrastructure failure that is never counted, with whatever the model call cost, so a paid answer
 * is not forgotten because the worker failed after it; an agent's trajectory of the try is kept, marked
 * abandoned. One statement: no try without the release.
 * Returns whether the release won and the attempt's dispatch number after it: for 'send-now' the one to
 * send, for the others the last one sent.
 */
export async function releaseAttempt(
  db: Db,
  claim: Claim,
  workerId: string,
  reason: ReleaseReason,
  next: ReleaseNext,
): Promise<{ released: boolean; dispatch?: number }> {
  const sql = new SqlParams();
  const finishedAt = sql.now();
  const sets = [`"status" = 'QUEUED'`, `"claimToken" = NULL`, `"claimedBy" = NULL`, `"heartbeatAt" = NULL`];
  // A give-back is the worker's doing, not the attempt's: it is not counted against the dispatch cap.
  if (next === 'send-now')
    sets.push(
      `"dispatchCount" = "dispatchCount" + 1`,
      `"dispatchBase" = "dispatchBase" + 1`,
      `"dispatchedAt" = ${finishedAt}`,
    );
  else sets.push(`"dispatchedAt" = NULL`);
  const insertTry = tryInsert(sql, claim, workerId, `'INFRA_FAILURE'::"AttemptStatus"`, finishedAt, reason);
  // What the given-back try's agent had called (and spent) is kept with it, as its evidence is.
  const insertCalls = gatewayCallsInsert(sql, 'tried', reason.gatewayCalls);
  const rows = await db.$queryRawUnsafe<{ id: string; dispatchCount: number }[]>(
    `WITH won AS (UPDATE "Attempt" SET ${sets.join(', ')} WHERE ${ownedBy(sql, claim)} RETURNING "id", "dispatchCount"),
     tried AS (${insertTry} RETURNING "attemptId",
       "tryNumber"),${insertCalls ? `\n     called AS (${insertCalls}),` : ''}
     abandoned AS (UPDATE "Trajectory" SET "status" = 'abandoned', "updatedAt" = ${finishedAt}
       WHERE "attemptId" IN (SELECT "id" FROM won) AND "tryNumber" = ${sql.param(claim.tryNumber, 'int')}
         AND "status" = 'running')
     SELECT "id", "dispatchCount" FROM won`,
    ...sql.values,
  );
  const row = rows[0];
  if (!row) return { released: false };
  return { released: true, dispatch: row.dispatchCount };
}

/**
 * The reaper: attempts whose worker stopped heartbeating go back to QUEUED, due for the reaper's
 * dispatch. The abandoned try is recorded as such, so the history shows it, and it is never counted
 * as an outcome.
 */
export async function reapStaleAttempts(db: Db, staleAfterMs: number): Promise<string[]> {
  const staleBefore = new Date(Date.now() - staleAfterMs);
  const stale = await db.attempt.findMany({
    where: { status: 'RUNNING', heartbeatAt: { lt: staleBefore } },
    select: { id: true, claimToken: true, claimedBy: true, tryCount: true, startedAt: true },
    take: 500,
  });
  const reaped: string[] = [];
  for (const a of stale) {
    if (!a.claimToken) continue;
    const claim = {
      attemptId: a.id,
      claimToken: a.claimToken,
      tryNumber: a.tryCount,
      startedAt: a.startedAt ?? staleBefore,
    };
    const reason = {
      errorClass: 'worker_lost',
      errorMessage: `no heartbeat for ${Math.round(staleAfterMs / 1000)} s; the attempt was given back to the queue`,
    };
    const { released } = await releaseAttempt(db, claim, a.claimedBy ?? 'unknown', reason, 'reaper-sends');
    if (released) reaped.push(a.id);
  }
  return reaped;
}
