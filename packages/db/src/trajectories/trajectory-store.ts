import { gunzipSync, gzipSync } from 'node:zlib';
import {
  newId,
  stepFailed,
  stepHead,
  trajectoryStepSchema,
  trajectorySummarySchema,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';
import { jsonbSafe, jsonbText } from '../jsonb-text';
import type { SqlParams } from '../campaigns/sql-params';

/**
 * Trajectories in Postgres, apart from the attempt rows: one Trajectory per try, one TrajectoryStep
 * per model turn, written as each step completes so a running attempt can be watched. Bodies are
 * capped and gzip-compressed; small columns and the step head carry what pages list, filter and
 * jump on, so no page loads bodies it does not show and no read loads a campaign.
 */

/** A single text field of a stored step longer than this keeps its head and tail only. */
export const MAX_STORED_FIELD_BYTES = 1024 * 1024;

export interface TrajectoryStart {
  attemptId: string;
  tryNumber: number;
  agent: string;
  model: string;
  toolSet: string;
  startedAt?: Date;
}

/** Creates the try's trajectory, or returns the one already there (a duplicate delivery starts nothing twice). */
export async function startTrajectory(db: Db, t: TrajectoryStart): Promise<string> {
  const now = t.startedAt ?? new Date();
  const row = await db.trajectory.upsert({
    where: { attemptId_tryNumber: { attemptId: t.attemptId, tryNumber: t.tryNumber } },
    create: {
      id: newId('trajectory'),
      attemptId: t.attemptId,
      tryNumber: t.tryNumber,
      agent: t.agent,
      model: t.model,
      toolSet: t.toolSet,
      startedAt: now,
      updatedAt: now,
    },
    update: {},
    select: { id: true },
  });
  return row.id;
}

function capText(text: string): string {
  if (Buffer.byteLength(text) <= MAX_STORED_FIELD_BYTES) return text;
  const half = Math.floor(MAX_STORED_FIELD_BYTES / 2);
  const bytes = Buffer.from(text);
  return (
    `${bytes.subarray(0, half).toString('utf8')}\n[... ${bytes.length - 2 * half} ` +
    `bytes not stored ...]\n${bytes.subarray(bytes.length - half).toString('utf8')}`
  );
}

/** The record as stored: every free-text body capped, head and tail kept. */
export function capStep(step: TrajectoryStep): TrajectoryStep {
  return {
    ...step,
    message: {
      content: step.message.content === null ? null : capText(step.message.content),
      reasoning: step.message.reasoning === null ? null : capText(step.message.reasoning),
    },
    toolCalls: step.toolCalls.map((c) => ({ ...c, rawArguments: capText(c.rawArguments) })),
    results: step.results.map((r) => ({ ...r, output: capText(r.output) })),
    repo: step.repo ? { ...step.repo, diff: capText(step.repo.diff) } : null,
  };
}

export function encodeStepBody(step: TrajectoryStep): { body: Uint8Array<ArrayBuffer>; bodyBytes: number } {
  const json = Buffer.from(JSON.stringify(capStep(step)));
  return { body: new Uint8Array(gzipSync(json, { level: 6 })), bodyBytes: json.length };
}

export function decodeStepBody(body: Uint8Array): TrajectoryStep {
  return trajectoryStepSchema.parse(JSON.parse(gunzipSync(body).toString('utf8')));
}

export function stepColumnsForSeed(step: TrajectoryStep) {
  return stepColumns(step);
}

function stepColumns(step: TrajectoryStep) {
  const repo = step.repo;
  return {
    startedAt: new Date(step.startedAt),
    finishedAt: new Date(step.finishedAt),
    modelMs: Math.round(step.modelMs),
    toolMs: Math.round(step.toolMs),
    toolCalls: step.toolCalls.length,
    failed: stepFailed(step),
    exitCodes: step.results.map((r) => r.exitCode ?? -1),
    timedOut: step.results.some((r) => r.timedOut),
    formatStrike: step.formatStrike,
    inputTokens: step.usage.inputTokens,
    outputTokens: step.usage.outputTokens,
    costUsd: step.usage.costUsd,
    outputBytes: step.results.reduce((t, r) => t + r.outputBytes, 0),
    truncatedBytes: step.results.reduce((t, r) => t + r.truncatedBytes, 0),
    repoChanged: repo !== null && (repo.refsChanged.length > 0 || repo.diffBytes > 0),
    head: stepHead(step) as unknown as Prisma.InputJsonValue,
  };
}

/**
 * Stores one finished step and moves the trajectory's counters, in one statement: the step is
 * visible to readers as soon as this returns. Writing the same step again changes nothing.
 */
export async function appendTrajectoryStep(
  db: Db,
  trajectoryId: string,
  step: TrajectoryStep,
  protocol?: 'native' | 'text',
): Promise<boolean> {
  const parsed = trajectoryStepSchema.parse(step);
  const c = stepColumns(parsed);
  const { body, bodyBytes } = encodeStepBody(parsed);
  const rows = await db.$queryRaw<{ index: number }[]>`
    WITH inserted AS (
      INSERT INTO "TrajectoryStep" ("trajectoryId", "index", "startedAt", "finishedAt", "modelMs", "toolMs",
        "toolCalls", "failed", "exitCodes", "timedOut", "formatStrike", "inputTokens", "outputTokens", "costUsd",
        "outputBytes", "truncatedBytes", "repoChanged", "head", "body", "bodyBytes")
      VALUES (${trajectoryId}, ${parsed.index}, ${c.startedAt}, ${c.finishedAt}, ${c.modelMs}, ${c.toolMs},
        ${c.toolCalls}, ${c.failed}, ${c.exitCodes}::int[], ${c.timedOut}, ${c.formatStrike}, ${c.inputTokens},
        ${c.outputTokens}, ${c.costUsd}, ${c.outputBytes}, ${c.truncatedBytes}, ${c.repoChanged},
        ${jsonbText(c.head)}::jsonb, ${body}, ${bodyBytes})
      ON CONFLICT ("trajectoryId", "index") DO NOTHING
      RETURNING "index"
    )
    UPDATE "Trajectory" t SET
      "steps" = GREATEST(t."steps", i."index" + 1),
      "toolCalls" = t."toolCalls" + ${c.toolCalls},
      "failedSteps" = t."failedSteps" + ${c.failed ? 1 : 0},
      "firstFailedStep" = CASE WHEN ${c.failed} THEN LEAST(COALESCE(t."firstFailedStep", i."index"), i."index")
        ELSE t."firstFailedStep" END,
      "formatStrikes" = t."formatStrikes" + ${c.formatStrike ? 1 : 0},
      "inputTokens" = CASE WHEN ${c.inputTokens}::int IS NULL OR (t."steps" > 0 AND t."inputTokens" IS NULL) THEN NULL
        ELSE COALESCE(t."inputTokens", 0) + ${c.inputTokens}::int END,
      "outputTokens" = CASE WHEN ${c.outputTokens}::int IS NULL OR (t."steps" > 0 AND t."outputTokens" IS NULL)
        THEN NULL ELSE COALESCE(t."outputTokens", 0) + ${c.outputTokens}::int END,
      "totalTokens" = CASE WHEN ${parsed.usage.totalTokens}::int IS NULL OR (t."steps" > 0
        AND t."totalTokens" IS NULL) THEN NULL ELSE COALESCE(t."totalTokens", 0) + ${parsed.usage.totalTokens}::int END,
      "costUsd" = CASE WHEN ${c.costUsd}::float8 IS NULL OR (t."steps" > 0 AND t."costUsd" IS NULL) THEN NULL
        ELSE COALESCE(t."costUsd", 0) + ${c.costUsd}::float8 END,
      "modelMs" = t."modelMs" + ${c.modelMs},
      "toolMs" = t."toolMs" + ${c.toolMs},
      "outputBytes" = t."outputBytes" + ${c.outputBytes},
      "truncatedBytes" = t."truncatedBytes" + ${c.truncatedBytes},
      "protocol" = COALESCE(${protocol ?? null}, t."protocol"),
      "updatedAt" = now()
    FROM inserted i
    WHERE t."id" = ${trajectoryId}
    RETURNING i."index"`;
  return rows.length === 1;
}

/** Ends the loop's record: its summary and final totals (the summary's, which count every call). */
export async function finishTrajectory(db: Db, trajectoryId: string, summary: TrajectorySummary): Promise<void> {
  const s = trajectorySummarySchema.parse(summary);
  await db.trajectory.update({
    where: { id: trajectoryId },
    data: {
      status: 'finished',
      protocol: s.protocol,
      exitStatus: s.exitStatus,
      exitStep: s.exitStep,
      inputTokens: s.totals.inputTokens,
      outputTokens: s.totals.outputTokens,
      totalTokens: s.totals.totalTokens,
      costUsd: s.totals.costUsd,
      wallMs: Math.round(s.totals.wallMs),
      summary: jsonbSafe(s) as unknown as Prisma.InputJsonValue,
      finishedAt: new Date(),
      updatedAt: new Date(),
    },
  });
}

/**
 * The UPDATE that ends a cancelled try's trajectory, for the statement that writes the attempt's end
 * (finishAttempt), from the attempt row its `won` CTE returned: the attempt and its trajectory end
 * together or not at all. The trajectory ends `cancelled`, never `sandbox_error` (the cancel removes
 * the campaign's sandboxes, often before the worker hears of it, so the loop ended on a sandbox that
 * was gone) nor running or abandoned. An ending the loop reached on its own (a submit, a limit,
 * tampering) is kept: the model's steps up to it are what they were.
 */
export function cancelTrajectoryUpdate(sql: SqlParams, tryNumber: number): string {
  const detail = sql.param('the campaign was cancelled while the agent worked', 'text');
  return `UPDATE "Trajectory" AS t SET
      "exitStatus" = 'cancelled',
      "status" = CASE WHEN t."status" = 'running' THEN 'finished'::"TrajectoryStatus" ELSE t."status" END,
      "finishedAt" = COALESCE(t."finishedAt", now()),
      "summary" = CASE WHEN t."summary" IS NULL THEN NULL
        ELSE jsonb_set(jsonb_set(t."summary"::jsonb, '{exitStatus}', '"cancelled"'), '{exitDetail}',
          to_jsonb(${detail})) END,
      "updatedAt" = now()
    FROM won WHERE t."attemptId" = won."id" AND t."tryNumber" = ${sql.param(tryNumber, 'int')}
      AND (t."exitStatus" IS NULL OR t."exitStatus" IN ('sandbox_error', 'model_error'))`;
}

/** The try was abandoned (its worker died): its trajectory stays, marked so, and is never finished. */
export async function abandonTrajectory(
  db: Pick<Db, 'trajectory'>,
  attemptId: string,
  tryNumber: number,
): Promise<void> {
  await db.trajectory.updateMany({
    where: { attemptId, tryNumber, status: 'running' },
    data: { status: 'abandoned', updatedAt: new Date() },
  });
}
