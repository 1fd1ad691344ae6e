import { legacyScoreOutputMode, planLegacyImport } from '@gitbench/core';
import type { RecordedScore } from './rescore-legacy';

function messageText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((p) => (typeof p === 'object' && p && 'text' in p ? String((p as { text: unknown }).text) : ''))
      .join('');
    return parts || null;
  }
  return null;
}

/** Reads an upstream result envelope (validated by core's legacy schema) into scores to re-score. */
export function readRecordedScores(file: string, text: string): RecordedScore[] {
  const plan = planLegacyImport(file, text);
  return plan.attempts.map(({ domain, fixtureId, score }) => {
    const transcript = score.transcript ?? [];
    const user = transcript.find((m) => m.role === 'user');
    const assistant = [...transcript].reverse().find((m) => m.role === 'assistant');
    return {
      file,
      benchmark: domain,
      fixtureId,
      outputMode: legacyScoreOutputMode(score, { output_mode: plan.outputMode }),
      passed: score.passed,
      modelOutput: score.model_output ?? null,
      error: score.error ?? null,
      recordedPrompt: user ? messageText(user.content) : null,
      rawAnswer: assistant ? messageText(assistant.content) : null,
    };
  });
}
