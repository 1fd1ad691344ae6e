import { z } from 'zod';
import { count, ms } from './evidence-fields';

/** What ran in a try's sandbox: its commands' records and the sandbox it alone used. */

export const execRecordSchema = z
  .object({
    command: z.string(),
    exitCode: z.number().int(),
    stdout: z.string(),
    stderr: z.string(),
    timedOut: z.boolean(),
    truncated: z.boolean(),
    durationMs: ms,
  })
  .strict();

export const sandboxEvidenceSchema = z
  .object({
    answer: z.array(execRecordSchema),
    stoppedAt: count.optional(),
    probes: z.record(z.string(), execRecordSchema),
    repoStateAfter: z.string().optional(),
  })
  .strict();

/** Where the try's commands ran: no sandbox (scored on text, or why not), or the one it alone used. */
export const attemptSandboxSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none'), reason: z.string() }).strict(),
  z
    .object({
      kind: z.enum(['docker', 'local']),
      image: z.string(),
      imageId: z.string(),
      isolated: z.boolean(),
      /**
       * The sandbox this try alone used (a container id for Docker), removed afterwards; tries recorded before it was
       * kept have none.
       */
      sandboxId: z.string().optional(),
      evidence: sandboxEvidenceSchema,
      aborted: z.string().optional(),
      durationMs: ms,
      /**
       * The answer ran no command, so the scorer's look-ups were read once on the fixture's repository
       * as built, in the build's sandbox of this image, instead of in a sandbox of this try's own.
       */
      atBuild: z.literal(true).optional(),
    })
    .strict(),
]);
export type AttemptSandbox = z.infer<typeof attemptSandboxSchema>;
