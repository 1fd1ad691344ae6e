/**
 * Postgres, not the queue, decides who runs an attempt. BullMQ delivers at least once and a Redis
 * restart may lose jobs, so every state change here is a conditional update that tells the caller
 * whether it won: a duplicate delivery, a late worker or a reaped attempt can never write twice.
 * Claiming is attempt-claim.ts, the try row attempt-try.ts, giving an attempt back attempt-release.ts.
 */
import { rawQuery, type Db } from '../client';
import { gatewayCallsInsert } from '../trajectories/gateway-call-store';
import { cancelTrajectoryUpdate } from '../trajectories/trajectory-store';
import { ownedBy, type Claim } from './attempt-claim';
import { tryInsert, type AttemptWrite } from './attempt-try';
import { SqlParams } from './sql-params';

export {
  claimAttempt,
  heartbeatAttempt,
  type Claim,
  type ClaimedAttempt,
  type HeartbeatVerdict,
} from './attempt-claim';
export type { AttemptWrite } from './attempt-try';
export { reapStaleAttempts, releaseAttempt, type ReleaseNext, type ReleaseReason } from './attempt-release';

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
