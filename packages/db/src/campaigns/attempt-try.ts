import { newId, type GatewayCallRecord } from '@gitbench/core';
import type { AttemptStatus, Prisma } from '../generated/prisma/client';
import type { Claim } from './attempt-claim';
import type { SqlParams } from './sql-params';

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

const RECORD_COLUMNS: Record<Exclude<keyof AttemptWrite['record'], 'finishedAt' | 'gatewayCalls'>, string> = {
  errorClass: 'text',
  errorMessage: 'text',
  evidence: 'jsonb',
  productVersion: 'text',
  productDirty: 'boolean',
};

/** INSERT of the try row, from the attempt row a `won` CTE returned: no try without its attempt's change. */
export function tryInsert(
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
