/**
 * How a campaign target runs an Attempt. `text` and `json_schema`: the model answers once, as free text
 * or as JSON under the fixture's contract. `agent`: the model works in the attempt's sandbox through
 * tools for many turns and is scored on the repository it leaves or the answer it submits.
 *
 * The one list of modes: the database enum, the campaign configuration, the providers, the engine and
 * every page take theirs from here.
 */
export const MODES = ['text', 'json_schema', 'agent'] as const;
export type Mode = (typeof MODES)[number];

/** The modes in which the model answers once and the answer is scored. */
export const ANSWER_MODES = ['text', 'json_schema'] as const satisfies readonly Mode[];
export type AnswerMode = (typeof ANSWER_MODES)[number];

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

export function isAnswerMode(mode: Mode): mode is AnswerMode {
  return (ANSWER_MODES as readonly string[]).includes(mode);
}

/**
 * The modes a suite's tasks are built for (suite.yaml's `modes`) and the file that lists them, named as
 * its reader names it. A suite that lists none is built for every mode.
 */
export interface SuiteModes {
  file: string;
  allowed: readonly Mode[];
}

/** The modes a suite may run in: its list, else every mode. */
export function allowedModes(suite: SuiteModes | undefined): readonly Mode[] {
  return suite?.allowed ?? MODES;
}

/**
 * Why `mode` may not run on this suite, or null when it may. One message for every entry point (the CLI,
 * campaign creation, the form's estimate), so a refusal reads the same wherever it is met.
 */
export function suiteModeRefusal(suite: SuiteModes | undefined, mode: Mode): string | null {
  if (!suite || suite.allowed.includes(mode)) return null;
  const [last, ...rest] = [...suite.allowed].reverse();
  const listed = rest.length === 0 ? `the ${last} mode` : `the ${rest.reverse().join(', ')} and ${last} modes`;
  return `${suite.file}: modes: this suite's tasks are built for ${listed} only, not for ${mode}`;
}
