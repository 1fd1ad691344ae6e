import { z } from 'zod';
import { fixtureAsset } from '../../fixtures/fixture-files';
import type { Fixture, SuiteAsset } from '../../fixtures/types';
import type { HistoryCommit } from './history';

/**
 * The scoring blocks of GitGoodBench's three scenarios. The band is the paper's difficulty: for a
 * merge by its conflicts and files (one conflict easy, several in one file medium, several files
 * hard), for a file-commit chain by its length (3 easy, 4 medium, 5-6 hard).
 */

const sha = z.string().regex(/^[0-9a-f]{40}$/, 'must be a full commit or tree id');
const relative = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '..' && part !== '.'),
    'must be a path inside the repository',
  );

/**
 * The reference solution as calls of the scenario's own tools (ggb-mcr, ggb-ir, ggb-icc), for the
 * oracle agent; absent where the miner could not express it with them. Never shown to an agent.
 */
export const referenceToolCallsSchema = z
  .array(z.object({ name: z.string().min(1), args: z.record(z.string(), z.unknown()) }).strict())
  .optional();

/** The reference tool calls of a GitGoodBench fixture, or null when it has none (or is not one). */
export function ggbReferenceToolCalls(
  fixture: Pick<Fixture, 'scoring'>,
): { name: string; args: Record<string, unknown> }[] | null {
  const parsed = referenceToolCallsSchema.safeParse(fixture.scoring['reference_tool_calls']);
  return parsed.success && parsed.data && parsed.data.length > 0 ? parsed.data : null;
}

const historyCommitSchema = z
  .object({ sha: z.string(), subject: z.string(), message: z.string(), files: z.array(z.string()), diff: z.string() })
  .strict() satisfies z.ZodType<HistoryCommit>;

export const ggbMcrScoringSchema = z.looseObject({
  type: z.literal('ggb_mcr'),
  /** The real merge commit (as re-created in the scenario's compact history); not in the sandbox repository. */
  merge_commit: sha,
  /** Its tree: the agent's HEAD must have exactly this tree. */
  merge_tree: sha,
  /**
   * A bundle (an asset: brought into the sandbox only after the attempt) holding the merge commit, so
   * the diff to it can be shown whatever the agent did. Its prerequisites are the two merged commits.
   */
  merge_bundle: z.string().min(1),
  conflicts: z.number().int().min(1),
  files: z.array(relative).min(1),
  band: z.enum(['easy', 'medium', 'hard']),
});
export type GgbMcrScoring = z.output<typeof ggbMcrScoringSchema>;

const chain = {
  /** The commit the chain starts from (the rebase's onto, the reset target). */
  base: sha,
  band: z.enum(['short', 'medium', 'long']),
  chain_length: z.number().int().min(1),
  /** The original history the agent's is compared with (ICC: restricted to the target file). */
  original_history: z.array(historyCommitSchema).min(1),
};

export const ggbIrScoringSchema = z.looseObject({ type: z.literal('ggb_ir'), ...chain });
export type GgbIrScoring = z.output<typeof ggbIrScoringSchema>;

export const ggbIccScoringSchema = z.looseObject({
  type: z.literal('ggb_icc'),
  ...chain,
  target_file: relative,
  /** The target file's blob at the chain's end: every change to it must end up committed. */
  final_blob: sha,
});
export type GgbIccScoring = z.output<typeof ggbIccScoringSchema>;

export type ConfigResult<C> = { ok: true; config: C } | { ok: false; problems: { field: string; message: string }[] };

function parse<C>(schema: z.ZodType<C>, fixture: Pick<Fixture, 'scoring'>): ConfigResult<C> {
  const parsed = schema.safeParse(fixture.scoring);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
  return { ok: true, config: parsed.data };
}

export type GgbMcrConfig = GgbMcrScoring & { mergeBundle: SuiteAsset };

export function ggbMcrConfig(f: Pick<Fixture, 'scoring' | 'assets' | 'files'>): ConfigResult<GgbMcrConfig> {
  const parsed = parse(ggbMcrScoringSchema, f);
  if (!parsed.ok) return parsed;
  const mergeBundle = fixtureAsset(f, parsed.config.merge_bundle);
  if (!mergeBundle)
    return {
      ok: false,
      problems: [{ field: 'merge_bundle', message: `${parsed.config.merge_bundle} is not among the fixture's assets` }],
    };
  return { ok: true, config: { ...parsed.config, mergeBundle } };
}
export const ggbIrConfig = (f: Pick<Fixture, 'scoring'>) => parse(ggbIrScoringSchema, f);
export const ggbIccConfig = (f: Pick<Fixture, 'scoring'>) => parse(ggbIccScoringSchema, f);
