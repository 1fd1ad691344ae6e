import { canonicalJson, sha256Hex } from '../canonical-json';

/** What about a judge decides its verdicts: who is asked, how, and with which prompt. No secrets. */
export interface JudgeConfigIdentity {
  kind: 'llm_judge' | 'pairwise';
  promptVersion: string;
  members: Array<{ model: string; provider: string; baseUrl?: string; extraBody?: Record<string, unknown> }>;
}

export function judgeConfigHash(config: JudgeConfigIdentity): string {
  return sha256Hex(canonicalJson(config));
}

/** The answer text is hashed as given: two outputs differing by whitespace are different outputs. */
export function outputHash(output: string): string {
  return sha256Hex(output);
}

export interface JudgeCacheKeyParts {
  fixtureInputHash: string;
  outputHash: string;
  judgeConfigHash: string;
}

/** One string key, readable enough to debug, for a (fixture input, output, judge config) triple. */
export function judgeCacheKey(parts: JudgeCacheKeyParts): string {
  return `judge:${parts.fixtureInputHash}:${parts.outputHash}:${parts.judgeConfigHash}`;
}
