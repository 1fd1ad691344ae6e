import { parseModelId } from '@gitbench/core';

/**
 * Models that need no endpoint, key or profile. Web, CLI and worker all ask this module which model
 * ids they are, so a name one of them accepts is never one another rejects.
 */

/** The profile recorded for campaign targets served by a built-in model. Reserved in gitbench.json. */
export const BUILTIN_PROFILE = 'builtin';

export type BuiltinKind = 'oracle' | 'nop' | 'mock' | 'simulated' | 'replay';

export interface BuiltinModel {
  kind: BuiltinKind;
  /** The model id to offer (a form's checkbox, `gitbench profiles`); replay needs a path appended. */
  model: string;
  /** How to write it, with its optional parts. */
  usage: string;
  /** True when no model produced the answers: every display of the results must say so. */
  simulated: boolean;
  description: string;
}

export const BUILTIN_MODELS: readonly BuiltinModel[] = [
  {
    kind: 'oracle',
    model: 'oracle',
    usage: 'oracle',
    simulated: false,
    description: "answers each fixture's expected answer: proves the scorers accept correct answers",
  },
  {
    kind: 'nop',
    model: 'nop',
    usage: 'nop',
    simulated: false,
    description: 'does nothing: an empty answer, and in agent mode submits without acting',
  },
  {
    kind: 'mock',
    model: 'mock',
    usage: 'mock',
    simulated: false,
    description: 'always the same wrong answer: exercises the machinery without a model',
  },
  {
    kind: 'simulated',
    model: 'simulated',
    usage: 'simulated[:seed]',
    simulated: true,
    description: 'seeded stand-in, right with a probability per difficulty: not a model, labelled simulated',
  },
  {
    kind: 'replay',
    model: 'replay:',
    usage: 'replay:<result file or dir>',
    simulated: false,
    description: 'answers recorded in result files, with their recorded tokens, cost and API time',
  },
];

export const BUILTIN_USAGE = BUILTIN_MODELS.map((m) => m.usage).join(', ');

/** Which built-in model a model id names, or null. An effort suffix (`mock#high`) changes nothing for them. */
export function builtinKindOf(model: string): BuiltinKind | null {
  const trimmed = model.trim();
  if (/^replay:.+/.test(trimmed)) return 'replay';
  let base: string;
  try {
    base = parseModelId(trimmed).baseModel;
  } catch {
    return null;
  }
  if (base === 'oracle' || base === 'mock' || base === 'nop') return base;
  if (base === 'simulated' || /^simulated:.+/.test(base)) return 'simulated';
  return null;
}

/** The seed of `simulated[:seed]`; `simulated` alone is seed 0. */
export function simulatedSeedOf(model: string): string {
  const base = parseModelId(model.trim()).baseModel;
  return base.startsWith('simulated:') ? base.slice('simulated:'.length) : '0';
}
