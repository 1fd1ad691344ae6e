import { capJsonStrings, redactSecrets, sumCallUsage, type GitbenchEvidence } from '@gitbench/core';
import type { AttemptWrite, Prisma } from '@gitbench/db';
import { attemptRows, evidenceOfRun, type AttemptRun } from '@gitbench/engine';
import type { AttemptToRun, StorageError } from '@gitbench/use-cases';
import type { EngineExecutorDeps } from './engine-executor-deps';

/** What the worker stores of a try: its rows and evidence, capped and with every stored key cut out. */

/** Prisma's JSON input type for a value already known to be JSON. */
export const json = (v: unknown) => v as Prisma.InputJsonValue;
export const DEFAULT_MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;

/**
 * What the worker stores (the rows, a trajectory's steps and summary) with every stored provider key
 * replaced, in case a provider's error or echo carried one.
 */
export function redacted<T>(deps: EngineExecutorDeps, value: T): T {
  const secrets = [...(deps.secrets?.() ?? [])];
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  const clean = redactSecrets(text, secrets);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/** The try's evidence record with the worker's warnings, no larger than GITBENCH_MAX_EVIDENCE_BYTES. */
export function evidenceOf(deps: EngineExecutorDeps, run: AttemptRun, a: AttemptToRun): GitbenchEvidence {
  const evidence = evidenceOfRun(run, { mode: a.outputMode, expected: a.fixture.expected });
  const warnings = [...(deps.warnings ?? [])];
  if (warnings.length > 0) evidence.warnings = warnings;
  const max = deps.limits?.maxEvidenceBytes ?? DEFAULT_MAX_EVIDENCE_BYTES;
  const capped = capJsonStrings(evidence, max, 'GITBENCH_MAX_EVIDENCE_BYTES');
  if (!capped.cut) return evidence;
  return {
    ...capped.value,
    warnings: [
      ...warnings,
      `The evidence was larger than ${max} bytes (GITBENCH_MAX_EVIDENCE_BYTES): its longest texts are cut.`,
    ],
  };
}

/** What a try that the worker's storage stopped had done: its model calls, no scoring. */
export function storageFailureRun(err: StorageError): AttemptRun {
  const calls = err.calls as AttemptRun['calls'];
  return {
    ending: { failure: 'transient' },
    status: 'INFRA_FAILURE',
    errorClass: 'storage',
    errorMessage: err.message,
    passed: null,
    score: null,
    attempt: null,
    calls,
    usage: sumCallUsage(calls),
    durationMs: 0,
  };
}

/**
 * The engine's classified attempt as the attempt row's columns and the try's evidence record (as JSON for
 * Prisma), with a third-party agent's gateway calls, which the same write stores beside the try.
 */
export function toRows(run: AttemptRun, started: number, evidence: GitbenchEvidence): AttemptWrite {
  const rows = attemptRows(run, Date.now() - started, evidence);
  const record = rows.record.evidence
    ? { ...rows.record, evidence: json(rows.record.evidence) }
    : { errorClass: rows.record.errorClass, errorMessage: rows.record.errorMessage };
  const calls = run.agent?.calls;
  return { ...rows, record: calls?.length ? { ...record, gatewayCalls: calls } : record };
}
