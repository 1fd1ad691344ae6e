import { z } from 'zod';
import { renderHistory, sameHistory, type HistoryCommit } from '../families/ggb/history';
import { canonicalJson, sha256Hex } from '../canonical-json';

/**
 * GitGoodBench's pairwise judge of two Git histories (paper, 3.3 and B.4): the agent's history and the
 * original one are shown as HISTORY-1 and HISTORY-2, the judge answers with structured output
 * `{evaluation_result, evaluation_reason}` at temperature 0, and the question is asked twice with the
 * positions swapped. The scenario is solved only if the agent's history wins both times. A question
 * without a usable reply leaves the attempt unscored (excluded), never scored another way.
 */

export const HISTORY_RESULTS = ['HISTORY-1', 'HISTORY-2', 'TIE'] as const;
export type HistoryResult = (typeof HISTORY_RESULTS)[number];

export const historyReplySchema = z
  .object({ evaluation_result: z.enum(HISTORY_RESULTS), evaluation_reason: z.string() })
  .strict();
export type HistoryReply = z.infer<typeof historyReplySchema>;

export const HISTORY_REPLY_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    evaluation_result: { type: 'string', enum: [...HISTORY_RESULTS] },
    evaluation_reason: { type: 'string' },
  },
  required: ['evaluation_result', 'evaluation_reason'],
  additionalProperties: false,
};

/** Bumped whenever the prompt's wording changes, so cached verdicts of an older prompt are not reused. */
export const HISTORY_JUDGE_PROMPT_VERSION = 'ggb-history-v1';

/** The paper's prompt (Figures 10 and 11), with the two histories in the given order. */
export function buildHistoryJudgePrompt(history1: string, history2: string): string {
  return [
    'Please act as an impartial judge and evaluate the quality of the two git histories that are displayed below.',
    'Your evaluation should consider the following aspects:',
    '- The quality of the commit messages with respect to consistency, conciseness, duplication and correctness with',
    '  respect to the content of the commit.',
    '- The logical cohesion of the changes present within the ' +
      'commits. Changes in a commit should have high logical cohesion.',
    '- The logical progression and common thread between the commits ' +
      'and especially the order in which the commits are presented.',
    '- The size of the commits. Commits should be as small as ' +
      'possible without breaking the system (e.g. changing a method',
    '  signature in a non-backwards compatible way without also changing all uses of the method in the same commit).',
    '',
    'Your job is to evaluate which git history is of higher ' +
      'quality. Avoid any position biases and ensure that the order in',
    'which the responses were presented does not influence your decision. Do not allow the length of the responses to',
    'influence your evaluation. Be as objective as possible.',
    '',
    'You must adhere to the response format demonstrated in example responses below:',
    '{"evaluation_result": "HISTORY-1", "evaluation_reason": "The first git history has more descriptive ' +
      'commit and non-duplicate messages that align much more accurately with the content of the commits."}',
    '{"evaluation_result": "HISTORY-2", "evaluation_reason": "The commits in git history 2 are ' +
      'more concise and introduce logically coherent changes. The changes are introduced in such ' +
      'a way that they are unlikely to break the system as the commits are self-contained with ' +
      'respect to the part of the system that they affect and correctly propagate changes throughout ' +
      'the system. Thus I chose history 2 despite it having poorer quality commit messages."}',
    '{"evaluation_result": "TIE", "evaluation_reason": "Both histories introduce changes that ' +
      'are logically coherent and have similar commit messages. None of the two histories have ' +
      'fundamental issues, such as duplicate commit messages or changes that obviously would break ' +
      'the system if they were introduced as presented. As I am unsure, I am declaring a tie."}',
    '',
    '<HISTORY-1>',
    history1,
    '</HISTORY-1>',
    '<HISTORY-2>',
    history2,
    '</HISTORY-2>',
  ].join('\n');
}

/**
 * Asks the judge one question. Returns the reply, or null when there is no usable reply (a transport
 * error, a refusal, a reply that does not match the schema), with the reason.
 */
export type AskHistoryJudge = (prompt: string) => Promise<{ reply: HistoryReply } | { reply: null; error: string }>;

export interface HistoryVerdictRecord {
  agentAs: 'HISTORY-1' | 'HISTORY-2';
  result: HistoryResult;
  reason: string;
  agentWon: boolean;
}

export type HistoryJudgement =
  | { status: 'scored'; reason: null; verdicts: HistoryVerdictRecord[]; solved: boolean; tieOrWin: boolean }
  | { status: 'unscored'; reason: string; verdicts: HistoryVerdictRecord[] };

/** Where judgements are kept between calls (a campaign keeps them in the database). */
export interface HistoryJudgeCache {
  get(key: string): Promise<HistoryJudgement | undefined>;
  set(key: string, judgement: HistoryJudgement): Promise<void>;
}

export class InMemoryHistoryJudgeCache implements HistoryJudgeCache {
  private readonly entries = new Map<string, HistoryJudgement>();
  async get(key: string) {
    return this.entries.get(key);
  }
  async set(key: string, judgement: HistoryJudgement) {
    this.entries.set(key, judgement);
  }
  get size() {
    return this.entries.size;
  }
}

/** The cache key: the fixture's input, both histories as the judge reads them, and the judge's identity. */
export function historyJudgeCacheKey(input: {
  fixtureInputHash: string;
  original: string;
  agent: string;
  judgeConfigHash: string;
}): string {
  const runs = sha256Hex(canonicalJson({ original: input.original, agent: input.agent }));
  return `ggb-judge:${input.fixtureInputHash}:${runs}:${input.judgeConfigHash}`;
}

export interface JudgeHistoriesInput {
  original: readonly HistoryCommit[];
  agent: readonly HistoryCommit[];
  ask: AskHistoryJudge;
  cache?: { store: HistoryJudgeCache; fixtureInputHash: string; judgeConfigHash: string };
}

/** Asks twice (agent first, then original first) and keeps both verdicts and reasons. */
export async function judgeHistories(input: JudgeHistoriesInput): Promise<HistoryJudgement> {
  const agentText = renderHistory(input.agent);
  const originalText = renderHistory(input.original);
  const key = input.cache
    ? historyJudgeCacheKey({
        fixtureInputHash: input.cache.fixtureInputHash,
        original: originalText,
        agent: agentText,
        judgeConfigHash: input.cache.judgeConfigHash,
      })
    : null;
  if (key && input.cache) {
    const hit = await input.cache.store.get(key);
    if (hit) return hit;
  }
  const verdicts: HistoryVerdictRecord[] = [];
  const errors: string[] = [];
  for (const agentAs of ['HISTORY-1', 'HISTORY-2'] as const) {
    const prompt =
      agentAs === 'HISTORY-1'
        ? buildHistoryJudgePrompt(agentText, originalText)
        : buildHistoryJudgePrompt(originalText, agentText);
    let answer: Awaited<ReturnType<AskHistoryJudge>>;
    try {
      answer = await input.ask(prompt);
    } catch (err) {
      answer = { reply: null, error: (err as Error).message };
    }
    if (answer.reply === null) {
      errors.push(`${agentAs === 'HISTORY-1' ? 'agent-first' : 'original-first'} question: ${answer.error}`);
      continue;
    }
    const r = answer.reply;
    verdicts.push({
      agentAs,
      result: r.evaluation_result,
      reason: r.evaluation_reason,
      agentWon: r.evaluation_result === agentAs,
    });
  }
  // A judge failure is not cached: the next try asks again.
  if (errors.length > 0)
    return { status: 'unscored', reason: `no usable judge reply for the ${errors.join('; ')}`, verdicts };
  const judgement: HistoryJudgement = {
    status: 'scored',
    reason: null,
    verdicts,
    solved: verdicts.every((v) => v.agentWon),
    tieOrWin: verdicts.every((v) => v.agentWon || v.result === 'TIE'),
  };
  if (key && input.cache) await input.cache.store.set(key, judgement);
  return judgement;
}

/** Parses a judge's raw reply text (a JSON object, possibly fenced) into the schema, or says why not. */
export function parseHistoryReply(text: string): { reply: HistoryReply } | { reply: null; error: string } {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { reply: null, error: 'the reply is not JSON' };
  }
  const parsed = historyReplySchema.safeParse(value);
  if (!parsed.success)
    return {
      reply: null,
      error: `the reply does not match the schema: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    };
  return { reply: parsed.data };
}

const PLACEHOLDER = /^(wip|tmp|temp|fix|fixup!?.*|squash!?.*|update|changes?|misc|\.+|-+)?$/i;

/** A history's score under the scripted judge: commits whose subject is unique and says something. */
function scriptedScore(commits: readonly HistoryCommit[]): number {
  const subjects = commits.map((c) => c.subject.trim());
  return subjects.filter((s, i) => !PLACEHOLDER.test(s) && subjects.indexOf(s) === i && subjects.lastIndexOf(s) === i)
    .length;
}

/**
 * The scripted judge for tests and self-check (never for results): equal histories tie; otherwise the
 * history with more commits whose subject is unique and not a placeholder ("wip", "fix") wins, and an
 * equal count ties. It reads the histories back out of the prompt it is given, as a model would.
 */
export function scriptedHistoryJudge(histories: {
  original: readonly HistoryCommit[];
  agent: readonly HistoryCommit[];
}): AskHistoryJudge {
  const agentText = renderHistory(histories.agent);
  return (prompt) => {
    const first = /<HISTORY-1>\n([\s\S]*)\n<\/HISTORY-1>/.exec(prompt)?.[1];
    const agentIsFirst = first === agentText;
    const [one, two] = agentIsFirst ? [histories.agent, histories.original] : [histories.original, histories.agent];
    let result: HistoryResult;
    let reason: string;
    if (sameHistory(one, two)) {
      result = 'TIE';
      reason = 'The two histories are identical.';
    } else {
      const a = scriptedScore(one);
      const b = scriptedScore(two);
      result = a > b ? 'HISTORY-1' : b > a ? 'HISTORY-2' : 'TIE';
      reason = `Commits with a unique, descriptive subject: ${a} in history 1, ${b} in history 2.`;
    }
    return Promise.resolve({ reply: { evaluation_result: result, evaluation_reason: reason } });
  };
}
