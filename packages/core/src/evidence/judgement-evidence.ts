import { z } from 'zod';
import { count, ms, json } from './evidence-fields';
import { tokenUsageSchema, costSchema } from './model-call-evidence';

/** The LLM judge's verdict on a try, with each member's call. */

const judgeMemberSchema = z
  .object({
    memberId: z.string(),
    model: z.string(),
    status: z.enum(['scored', 'failed']),
    score: z.number().nullable(),
    reason: z.string().nullable(),
    rawReply: z.string().nullable(),
    usage: tokenUsageSchema.nullable(),
    cost: costSchema,
    apiDurationMs: ms.nullable(),
    route: json.nullable(),
    error: z.object({ kind: z.string(), code: z.string(), message: z.string() }).strict().nullable(),
  })
  .strict();

export const judgementSchema = z
  .object({
    verdict: z.discriminatedUnion('status', [
      z
        .object({
          status: z.literal('scored'),
          method: z.literal('mean'),
          score: z.number(),
          threshold: z.number(),
          passed: z.boolean(),
          scoredMembers: count,
          members: z.array(judgeMemberSchema),
        })
        .strict(),
      z
        .object({
          status: z.literal('unscored'),
          method: z.literal('mean'),
          threshold: z.number(),
          reason: z.string(),
          members: z.array(judgeMemberSchema),
        })
        .strict(),
    ]),
    cacheKey: z.string(),
    judgeConfigHash: z.string(),
    cacheHit: z.boolean(),
  })
  .strict();
