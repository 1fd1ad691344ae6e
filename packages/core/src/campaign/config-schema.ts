import { z } from 'zod';
import { DIFFICULTIES } from '../fixtures/types';
import { AGENT_NAME, agentConfigSchema, DEFAULT_TOOL_SET, OWN_AGENT } from '../agent/agent-config';
import { findToolSet, toolSetNames } from '../agent/tools/tool-registry';
import { MODES } from '../mode';
import { parseModelId } from '../models/model-id';

export const DEFAULT_TRIALS = 3;
export const MAX_TRIALS = 20;
/** Postgres `integer`, where the seed is stored. */
const MAX_SEED = 2_147_483_647;

const modelIdSchema = z
  .string({ error: 'Enter a model id.' })
  .trim()
  .min(1, 'Enter a model id.')
  .superRefine((value, ctx) => {
    if (value === '') return; // already reported by min(1)
    // parseModelId owns the `#effort` rules; its message names the allowed levels.
    try {
      parseModelId(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    }
  });

const nameList = (what: string) => z.array(z.string().trim().min(1, `A ${what} is empty.`)).default([]);

/**
 * Which fixtures of a suite a campaign runs. Every non-empty list narrows the selection (they combine
 * with AND; within one list any entry matches); all lists empty selects the whole suite.
 */
export const fixtureSelectionSchema = z
  .object({
    suiteDir: z.string().trim().min(1, 'Enter the suite directory.').default('fixtures'),
    /** Filled from the loaded suite when omitted (see resolveSuiteVersion); part of the config hash. */
    suiteVersion: z.string().trim().min(1, 'The suite version is empty.').optional(),
    domains: nameList('domain'),
    difficulties: z.array(z.enum(DIFFICULTIES, { error: `Use one of ${DIFFICULTIES.join(', ')}.` })).default([]),
    tags: nameList('tag'),
    /** Explicit fixtures as `domain/id`, e.g. `log/f001`. */
    ids: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[^/\s]+\/[^/\s]+$/, 'Write a fixture as domain/id, e.g. log/f001.'),
      )
      .default([]),
  })
  .strict();
export type FixtureSelection = z.output<typeof fixtureSelectionSchema>;

export const campaignConfigSchema = z
  .object({
    name: z
      .string({ error: 'Enter a name.' })
      .trim()
      .min(1, 'Enter a name.')
      .max(200, 'Keep the name under 200 characters.'),
    createdBy: z
      .string({ error: 'Say who creates the campaign.' })
      .trim()
      .min(1, 'Say who creates the campaign.')
      .max(200),
    models: z.array(modelIdSchema, { error: 'Choose at least one model.' }).min(1, 'Choose at least one model.'),
    outputModes: z
      .array(z.enum(MODES, { error: 'Use text, json_schema or agent.' }))
      .min(1, 'Choose at least one output mode.')
      .default(['text']),
    /**
     * Which agents run the `agent` output mode's targets, each with every model: `gitbench` (our own loop,
     * the default when omitted) and third-party agents by name (`gitbench agents` lists them).
     */
    agents: z
      .array(
        z
          .string({ error: 'Name an agent.' })
          .trim()
          .regex(AGENT_NAME, `Name an agent in lower case, e.g. ${OWN_AGENT} or claude-code.`),
        { error: 'List the agents as an array of names.' },
      )
      .min(1, `Choose at least one agent (${OWN_AGENT} is GitBench's own loop).`)
      .optional(),
    /** Tool set, protocol and limits of the `agent` output mode's targets; defaults when omitted. */
    agent: agentConfigSchema.optional(),
    fixtures: fixtureSelectionSchema.default({
      suiteDir: 'fixtures',
      domains: [],
      difficulties: [],
      tags: [],
      ids: [],
    }),
    trials: z
      .number({ error: 'Trials must be a whole number.' })
      .int('Trials must be a whole number.')
      .min(1, 'Run at least 1 trial.')
      .max(MAX_TRIALS, `Run at most ${MAX_TRIALS} trials.`)
      .default(DEFAULT_TRIALS),
    // A fixed default keeps "same configuration" meaning "same fixture state" without extra input.
    seed: z
      .number({ error: 'The seed must be a whole number.' })
      .int('The seed must be a whole number.')
      .min(0, 'The seed must not be negative.')
      .max(MAX_SEED, `The seed must be at most ${MAX_SEED}.`)
      .default(0),
    judgeProfile: z.string().trim().min(1, 'The judge profile is empty.').optional(),
    concurrency: z
      .number({ error: 'Concurrency must be a whole number.' })
      .int('Concurrency must be a whole number.')
      .min(1, 'Concurrency must be at least 1.')
      .max(256, 'Concurrency must be at most 256.')
      .optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    if (config.agent && !config.outputModes.includes('agent')) {
      ctx.addIssue({ code: 'custom', path: ['agent'], message: 'An agent configuration needs the agent output mode.' });
    }
    if (config.agents && !config.outputModes.includes('agent')) {
      ctx.addIssue({
        code: 'custom',
        path: ['agents'],
        message: 'Agents run only in the agent output mode: add agent to the output modes.',
      });
    }
    config.agents?.forEach((name, i) => {
      if (config.agents!.indexOf(name) !== i)
        ctx.addIssue({ code: 'custom', path: ['agents', i], message: `The agent '${name}' is listed twice.` });
    });
    const toolSet = config.agent?.toolSet;
    if (toolSet !== undefined && toolSet !== DEFAULT_TOOL_SET && !findToolSet(toolSet)) {
      ctx.addIssue({
        code: 'custom',
        path: ['agent', 'toolSet'],
        message: `Unknown tool set '${toolSet}'. Use default or one of ${toolSetNames().join(', ')}.`,
      });
    }
  });

export type CampaignConfigInput = z.input<typeof campaignConfigSchema>;
export type CampaignConfig = z.output<typeof campaignConfigSchema>;

/** Errors keyed by dotted field path (`fixtures.ids.2`), ready for a form or an HTTP 400 body. */
export interface CampaignConfigErrors {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
}

export type CampaignConfigParseResult =
  { success: true; data: CampaignConfig } | { success: false; error: CampaignConfigErrors };

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No campaign configuration nests deeper than this; a body that does is refused, not walked. */
export const MAX_CONFIG_DEPTH = 32;

/**
 * Strings a database cannot store faithfully: a NUL (Postgres refuses it) or an unpaired surrogate
 * (not Unicode; it would be stored as U+FFFD, silently). Reported with their dotted path. The walk keeps
 * its own stack and stops at MAX_CONFIG_DEPTH: a body of 100,000 nested arrays overflowed the call stack.
 */
export function unstorableText(value: unknown, path: string[] = []): CampaignConfigErrors | null {
  const at = (where: string[], message: string): CampaignConfigErrors => ({
    formErrors: where.length === 0 ? [message] : [],
    fieldErrors: where.length === 0 ? {} : Object.fromEntries([[where.join('.'), [message]]]),
  });
  // Depth first, in document order (a key before its value), as the recursive walk went.
  const stack: { value: unknown; path: string[] }[] = [{ value, path }];
  while (stack.length > 0) {
    const { value: v, path: p } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at(p, 'Contains a NUL character.');
      if (UNPAIRED_SURROGATE.test(v)) return at(p, 'Contains an unpaired surrogate (not valid Unicode).');
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (p.length - path.length >= MAX_CONFIG_DEPTH) return at(p, `Nested more than ${MAX_CONFIG_DEPTH} levels deep.`);
    const children: { value: unknown; path: string[] }[] = [];
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) children.push({ value: item, path: [...p, String(i)] });
    } else {
      for (const [key, item] of Object.entries(v)) {
        const shown = key.split('\u0000').join('\uFFFD').replace(new RegExp(UNPAIRED_SURROGATE.source, 'g'), '\uFFFD');
        children.push({ value: key, path: [...p, shown] }, { value: item, path: [...p, key] });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

export function parseCampaignConfig(input: unknown): CampaignConfigParseResult {
  const unstorable = unstorableText(input);
  if (unstorable) return { success: false, error: unstorable };
  const result = campaignConfigSchema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  return { success: false, error: fieldErrorsOf(result.error) };
}

export function fieldErrorsOf(error: z.ZodError): CampaignConfigErrors {
  const formErrors: string[] = [];
  // A Map, not an object: a client's key may be `__proto__`, `constructor` or `toString`.
  const fieldErrors = new Map<string, string[]>();
  const add = (path: string, message: string) => fieldErrors.set(path, [...(fieldErrors.get(path) ?? []), message]);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // Name each unknown key as its own field so a client sees exactly what to remove.
      for (const key of issue.keys) add([...issue.path, key].map(String).join('.'), `Unknown field '${key}'.`);
      continue;
    }
    if (issue.path.length === 0) {
      formErrors.push(issue.message);
      continue;
    }
    add(issue.path.map(String).join('.'), issue.message);
  }
  return { formErrors, fieldErrors: Object.fromEntries(fieldErrors) };
}
