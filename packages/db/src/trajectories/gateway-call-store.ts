import { gunzipSync, gzipSync } from 'node:zlib';
import { capJsonStrings, gatewayCallRecordSchema, type GatewayCallRecord } from '@gitbench/core';
import type { Db } from '../client';
import type { SqlParams } from '../campaigns/sql-params';

/**
 * A third-party agent's calls through the model gateway, stored per try beside the try's row. They
 * are written only by the statement that writes the try (finishAttempt, releaseAttempt): a try and
 * its calls land together or not at all, and a duplicate delivery that loses the claim writes neither.
 *
 * Size: an agent's every request repeats the whole conversation (its system prompt, tool schemas and
 * every earlier tool output), so the sum over a try grows with the square of its steps. Each record is
 * kept whole up to MAX_STORED_CALL_BYTES of JSON; past that its longest strings (the largest tool
 * outputs, the system prompt) are cut, head kept, with a marker, and cutBytes says how much went. The
 * JSON is then gzip-compressed (conversation JSON shrinks five to ten times). The gateway's call
 * budget bounds how many records a try has.
 */
export const MAX_STORED_CALL_BYTES = 1024 * 1024;

/**
 * The model name an agent asked for is the agent's text: a column keeps this much of it (the body keeps it whole up to
 * the cap).
 */
const MAX_REQUESTED_MODEL_CHARS = 200;

export interface StoredGatewayCall {
  record: GatewayCallRecord;
  /** Characters the cap cut from the record's strings (0 when it was stored whole). */
  cutBytes: number;
}

/**
 * The record as stored: its bodies (the wire request and response, the tool results and the answer,
 * all of which the agent or the model wrote) capped, its own facts (seq, times, counts) never touched,
 * so it parses as a GatewayCallRecord again. A request made of so many tiny strings that cutting the
 * longest ones cannot bring it under the cap is not kept: a note says how large it was.
 */
export function capGatewayCall(record: GatewayCallRecord): GatewayCallRecord {
  if (Buffer.byteLength(JSON.stringify(record)) <= MAX_STORED_CALL_BYTES) return record;
  const { request, response, toolResults, answer, ...facts } = record;
  const room = MAX_STORED_CALL_BYTES - Buffer.byteLength(JSON.stringify(facts));
  const cap = (req: unknown) =>
    capJsonStrings({ request: req, response, toolResults, answer }, room, 'the stored gateway call cap').value;
  let bodies = cap(request);
  if (Buffer.byteLength(JSON.stringify(bodies)) > room) {
    const bytes = Buffer.byteLength(JSON.stringify(request));
    bodies = cap({
      notStored:
        `the request (${bytes} bytes of JSON) could not be cut under ` +
        `the stored gateway call cap (${MAX_STORED_CALL_BYTES} bytes)`,
    });
  }
  return { ...facts, ...bodies };
}

/** One call as a row for jsonb_to_recordset: the small columns, and the capped, compressed record in base64. */
function callRow(call: GatewayCallRecord) {
  const record = gatewayCallRecordSchema.parse(call);
  const whole = Buffer.byteLength(JSON.stringify(record));
  const json = Buffer.from(JSON.stringify(capGatewayCall(record)));
  return {
    seq: record.seq,
    protocol: record.protocol,
    requestedModel: record.requestedModel?.slice(0, MAX_REQUESTED_MODEL_CHARS) ?? null,
    model: record.model,
    status: record.status,
    errorKind: record.errorKind,
    streamed: record.streamed,
    toolCalls: record.answer?.toolCalls.length ?? 0,
    toolResults: record.toolResults.length,
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
    reasoningTokens: record.reasoningTokens,
    costUsd: record.costUsd,
    costEstimated: record.costEstimated,
    gatewayMs: record.gatewayMs,
    providerMs: record.providerMs,
    hookMs: record.hookMs,
    retries: record.retries,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    body: gzipSync(json, { level: 6 }).toString('base64'),
    bodyBytes: json.length,
    cutBytes: Math.max(0, whole - json.length),
  };
}

const COLUMNS = `"seq" int, "protocol" text, "requestedModel" text, "model" text, "status" int, "errorKind" text,
  "streamed" boolean, "toolCalls" int, "toolResults" int, "inputTokens" int, "outputTokens" int, "reasoningTokens" int,
  "costUsd" float8, "costEstimated" boolean, "gatewayMs" float8, "providerMs" float8, "hookMs" float8, "retries" int,
  "startedAt" timestamptz, "endedAt" timestamptz, "body" text, "bodyBytes" int, "cutBytes" int`;

/**
 * The INSERT of a try's calls, as one more sub-statement of the statement that writes the try: `tried`
 * names the CTE that inserted the try and returns its "attemptId" and "tryNumber", so the calls exist
 * only if the try row does. Null when there are no calls (nothing to add to the statement).
 */
export function gatewayCallsInsert(
  sql: SqlParams,
  tried: string,
  calls: readonly GatewayCallRecord[] | undefined,
): string | null {
  if (!calls || calls.length === 0) return null;
  const rows = sql.param(calls.map(callRow), 'jsonb');
  return `INSERT INTO "GatewayCall" ("attemptId", "tryNumber", "seq", "protocol", "requestedModel", "model", "status",
    "errorKind", "streamed",
      "toolCalls", "toolResults", "inputTokens", "outputTokens", "reasoningTokens", "costUsd", "costEstimated",
        "gatewayMs", "providerMs",
      "hookMs", "retries", "startedAt", "endedAt", "body", "bodyBytes", "cutBytes")
    SELECT t."attemptId", t."tryNumber", c."seq", c."protocol", c."requestedModel", c."model", c."status",
      c."errorKind", c."streamed",
      c."toolCalls", c."toolResults", c."inputTokens", c."outputTokens", c."reasoningTokens", c."costUsd",
        c."costEstimated", c."gatewayMs",
      c."providerMs", c."hookMs", c."retries", c."startedAt" AT TIME ZONE 'UTC', c."endedAt" AT TIME ZONE 'UTC',
        decode(c."body", 'base64'),
      c."bodyBytes", c."cutBytes"
    FROM ${tried} t, jsonb_to_recordset(${rows}) AS c(${COLUMNS})`;
}

export function decodeGatewayCallBody(body: Uint8Array): GatewayCallRecord {
  return gatewayCallRecordSchema.parse(JSON.parse(gunzipSync(body).toString('utf8')));
}

/** The calls of one try (the latest try's unless `tryNumber` is given), in order, their records decompressed. */
export async function readGatewayCalls(
  db: Db,
  attemptId: string,
  opts: { tryNumber?: number } = {},
): Promise<StoredGatewayCall[]> {
  const tryNumber =
    opts.tryNumber ??
    (
      await db.gatewayCall.findFirst({
        where: { attemptId },
        select: { tryNumber: true },
        orderBy: { tryNumber: 'desc' },
      })
    )?.tryNumber;
  if (tryNumber === undefined) return [];
  const rows = await db.gatewayCall.findMany({
    where: { attemptId, tryNumber },
    select: { body: true, cutBytes: true },
    orderBy: { seq: 'asc' },
  });
  return rows.map((r) => ({ record: decodeGatewayCallBody(r.body), cutBytes: r.cutBytes }));
}
