import { z } from 'zod';
import { COST_SOURCES } from '../models/usage';
import { count, ms, json } from './evidence-fields';

/** One call of a model as its provider recorded it: usage, cost, retries, route, transcript. */

export const tokenUsageSchema = z
  .object({
    inputTokens: count.nullable(),
    outputTokens: count.nullable(),
    reasoningTokens: count.nullable(),
    totalTokens: count.nullable(),
  })
  .strict();

export const costSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal(COST_SOURCES[0]), usd: z.number() }).strict(),
  z.object({ source: z.literal(COST_SOURCES[1]), usd: z.number(), priceDate: z.string() }).strict(),
  z.object({ source: z.literal(COST_SOURCES[2]), usd: z.null() }).strict(),
]);

export const retryRecordSchema = z
  .object({
    attempt: count,
    reason: z.string(),
    status: z.number().int().nullable(),
    message: z.string(),
    waitMs: ms,
    waitSource: z.enum(['retry_after', 'backoff', 'none']),
    durationMs: ms,
  })
  .strict();

export const transcriptMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string(),
    reasoning: z.string().optional(),
  })
  .strict();

export const routeSchema = z
  .object({
    provider: z.string(),
    profile: z.string(),
    baseUrl: z.string().nullable(),
    requestedModel: z.string(),
    servedModel: z.string().nullable(),
    responseId: z.string().nullable(),
    upstreamProvider: z.string().nullable(),
    simulated: z.boolean(),
    replay: z
      .object({
        file: z.string(),
        recordedRoute: json.nullable(),
        recordedVerdict: z
          .object({ passed: z.boolean(), similarity: z.number().nullable(), error: z.string().nullable() })
          .strict(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** One call of the target model, everything the provider recorded about it. */
export const modelCallSchema = z
  .object({
    output: z.string(),
    reasoning: z.string().nullable(),
    usage: tokenUsageSchema,
    cost: costSchema,
    apiDurationMs: ms,
    route: routeSchema,
    /** What was sent, minus the prompt and any secret. */
    requestConfig: json,
    retries: z.array(retryRecordSchema),
    transcript: z.array(transcriptMessageSchema),
    flags: z.array(z.string()),
    qualityFailure: z
      .object({ code: z.enum(['malformed_json', 'schema_violation']), message: z.string() })
      .strict()
      .nullable(),
  })
  .strict();
export type ModelCall = z.infer<typeof modelCallSchema>;
