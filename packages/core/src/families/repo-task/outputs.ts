import { z } from 'zod';
import type { ExecRecord } from '../../scoring/types';

/**
 * What the outputs listing (sandbox-scripts.ts, OUTPUTS_LISTING_PY) recorded about the files the agent
 * wrote at the task's declared outputs: path, size and hash of each, and the content of small text
 * files and images, for the attempt page.
 */
const outputFileSchema = z.object({
  path: z.string(),
  bytes: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
  error: z.string().optional(),
  text: z.string().optional(),
  mime: z.string().optional(),
  base64: z.string().optional(),
});
export type RepoTaskOutputFile = z.infer<typeof outputFileSchema>;

const listingSchema = z.object({ files: z.array(outputFileSchema) });

export type RepoTaskOutputs = { ok: true; files: RepoTaskOutputFile[] } | { ok: false; problem: string };

/** The listing from its probe's record (its last line of stdout), or why there is none. */
export function readRepoTaskOutputs(record: ExecRecord | undefined): RepoTaskOutputs {
  if (!record) return { ok: false, problem: 'the outputs were not listed: no sandbox evidence' };
  if (record.timedOut) return { ok: false, problem: 'listing the outputs did not finish within its time limit' };
  const line = record.stdout.trim().split('\n').pop() ?? '';
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return {
      ok: false,
      problem:
        `the outputs listing printed no JSON ` +
        `(exit ${record.exitCode})${record.stderr.trim() ? `: ${record.stderr.trim().slice(-300)}` : ''}`,
    };
  }
  const parsed = listingSchema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      problem: `the outputs listing does not have the expected shape: ${parsed.error.issues[0]?.message ?? ''}`,
    };
  return { ok: true, files: parsed.data.files };
}
