import { ConfigurationError } from './errors';

/** Reasoning effort levels a model id may carry, in increasing order of effort. */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export function isReasoningEffort(value: string): value is ReasoningEffort {
  return (REASONING_EFFORTS as readonly string[]).includes(value);
}

export interface ModelId {
  /** Exactly what the user wrote, e.g. `openai/o3-mini#high`. */
  raw: string;
  /** The model to request and to group results by, e.g. `openai/o3-mini` or `llama3.1:8b`. */
  baseModel: string;
  effort?: ReasoningEffort;
}

/**
 * Splits a model id into base model and reasoning effort.
 *
 * `#level` always names an effort, so an unknown level after `#` is a configuration error rather than
 * a silently different model. `:level` is only an effort when the segment is a valid level: Ollama
 * uses `:` for tags (`llama3.1:8b`, `qwen3:latest`) and those must reach the server unchanged.
 */
export function parseModelId(raw: string): ModelId {
  const trimmed = raw.trim();
  if (trimmed === '') throw new ConfigurationError('empty_model_id', 'A model id is empty.');

  const hash = trimmed.lastIndexOf('#');
  if (hash >= 0) {
    const baseModel = trimmed.slice(0, hash);
    const level = trimmed.slice(hash + 1);
    if (baseModel === '') throw new ConfigurationError('empty_model_id', `Model id '${raw}' has no model before '#'.`);
    if (!isReasoningEffort(level)) {
      throw new ConfigurationError(
        'invalid_effort',
        `Model id '${raw}': '${level}' is not a reasoning effort (use one of ${REASONING_EFFORTS.join(', ')}).`,
      );
    }
    return { raw, baseModel, effort: level };
  }

  const colon = trimmed.lastIndexOf(':');
  if (colon > 0) {
    const level = trimmed.slice(colon + 1);
    if (isReasoningEffort(level)) return { raw, baseModel: trimmed.slice(0, colon), effort: level };
  }
  return { raw, baseModel: trimmed };
}

/** The canonical spelling used in records: `base#effort`, never the ambiguous colon form. */
export function formatModelId(id: Pick<ModelId, 'baseModel' | 'effort'>): string {
  return id.effort ? `${id.baseModel}#${id.effort}` : id.baseModel;
}

/**
 * True for the built-in simulated model (`simulated` or `simulated:<seed>`, with any effort): a seeded
 * coin stands in for a model, so every place that shows its results must say so. `sim` is the
 * earlier spelling of the same thing and is still found in recorded campaigns.
 */
export function isSimulatedModelId(modelId: string): boolean {
  return SIMULATED_MODEL_ID.test(modelId.trim());
}

/** The pattern behind isSimulatedModelId, for code that cannot import core (a browser bundle gets its source). */
export const SIMULATED_MODEL_ID = /^(simulated|sim)(:[^#]*)?(#.*)?$/;

/**
 * True for the built-in controls: oracle (the reference answer), mock and nop (a fixed wrong answer or
 * none) and the simulated coin. They pass or fail by construction, so they are evidence about the
 * scorers, never about how hard a fixture is. A replay is not one: it plays back a real model.
 */
export function isControlModelId(modelId: string): boolean {
  if (isSimulatedModelId(modelId)) return true;
  const base = modelId.trim().split('#')[0]!;
  return base === 'oracle' || base === 'mock' || base === 'nop';
}

/**
 * True for a replay (`replay:<recording>`): recorded answers of a real model played back, with the
 * tokens, cost and latency recorded then. Real behaviour, but not a run of the model now: every place
 * that shows its results says it is a replay.
 */
export function isReplayModelId(modelId: string): boolean {
  return /^replay:./.test(modelId.trim());
}
