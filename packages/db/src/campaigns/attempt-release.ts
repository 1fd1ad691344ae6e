import type { Db } from '../client';
import { gatewayCallsInsert } from '../trajectories/gateway-call-store';
import { ownedBy, type Claim } from './attempt-claim';
import { tryInsert, type AttemptWrite } from './attempt-try';
import { SqlParams } from './sql-params';

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
