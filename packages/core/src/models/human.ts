import { ConfigurationError } from './errors';
import { REASONING_EFFORTS } from './model-id';

/**
 * A person who worked an attempt (`gitbench human`), recorded as the target `human:<name>`. A human
 * baseline is shown beside the models, marked as a person's, and never ranked as a model: it is one
 * person's time and commands on one fixture, not a sample of a model's behaviour.
 */
export const HUMAN_PREFIX = 'human:';

/** The pattern behind isHumanModelId, for code that cannot import core (a browser bundle gets its source). */
export const HUMAN_MODEL_ID = /^human:[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isHumanModelId(modelId: string): boolean {
  return HUMAN_MODEL_ID.test(modelId.trim());
}

/** The target a person's attempts are recorded under; the name is refused where it would read as something else. */
export function humanModelId(name: string): string {
  const id = `${HUMAN_PREFIX}${name.trim()}`;
  if (!HUMAN_MODEL_ID.test(id)) {
    throw new ConfigurationError(
      'invalid_human_name',
      `'${name}' cannot name a person: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    );
  }
  // `human:high` would parse as the model `human` at effort high.
  if ((REASONING_EFFORTS as readonly string[]).includes(name.trim())) {
    throw new ConfigurationError(
      'invalid_human_name',
      `'${name}' is a reasoning effort, which a model id reads after ':'; choose another name.`,
    );
  }
  return id;
}
