import { Ajv, type ValidateFunction } from 'ajv';
import type { AnswerMode } from '@gitbench/core';
import type { QualityFailure } from './types';

// strict: false because fixture contracts may carry annotation keywords ajv does not know.
const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

export type StructuredCheck = { ok: true; value: unknown } | { ok: false; failure: QualityFailure };

/**
 * Checks a json_schema answer: it must be one JSON document that satisfies the contract. Text around
 * the JSON (including Markdown fences) is malformed: the strict response format asked for bare JSON,
 * and accepting repairs here would score differently from the providers that obey.
 */
export function checkStructuredOutput(output: string, schema: Record<string, unknown> | undefined): StructuredCheck {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, failure: { code: 'malformed_json', message: `The answer is not valid JSON: ${reason}` } };
  }
  if (!schema) return { ok: true, value };
  const validate = validatorFor(schema);
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  return {
    ok: false,
    failure: {
      code: 'schema_violation',
      message: `The answer does not satisfy the output contract: ${problems.join('; ')}`,
    },
  };
}

/** The quality verdict on an answer for its output mode; null when it is usable. */
export function checkAnswer(
  output: string,
  outputMode: AnswerMode,
  schema: Record<string, unknown> | undefined,
): { qualityFailure: QualityFailure | null; structuredOutput?: unknown } {
  if (outputMode === 'text') return { qualityFailure: null };
  const check = checkStructuredOutput(output, schema);
  return check.ok ? { qualityFailure: null, structuredOutput: check.value } : { qualityFailure: check.failure };
}
