import { ConfigurationError, type AnswerMode, type Mode } from '@gitbench/core';
import { builtinKindOf } from './builtin-models';
import { createReplayProvider } from './replay';
import type { ReplayIndex } from './replay-index';
import { loadReplayIndex, ReplaySourceError, type ReplaySources } from './replay-sources';

/** What follows `replay:` in a model id: one source, or several separated by commas. */
function replaySource(model: string): string {
  return model.startsWith('replay:') ? model.slice('replay:'.length) : model;
}

/**
 * The `replay:` models a registry serves. Replay files by source are loaded once: a worker resolves its
 * target for every attempt, and parsing the recorded envelopes each time is the same work again. A failed
 * load is not kept, so a file added later (after a retry of the failed attempts) is found.
 */
export class ReplayTargets {
  private readonly loaded = new Map<string, Promise<ReplayIndex>>();

  /** `sources` is read when a file is first loaded (the environment's directories against the working directory). */
  constructor(private readonly sources: () => ReplaySources) {}

  /** The replay files `model` names, loaded once per source. */
  index(model: string): Promise<ReplayIndex> {
    const source = replaySource(model);
    let loading = this.loaded.get(source);
    if (!loading) {
      loading = loadReplayIndex(source.split(','), this.sources());
      this.loaded.set(source, loading);
      loading.catch(() => this.loaded.delete(source));
    }
    return loading;
  }

  /**
   * Why a campaign cannot replay `model` in its output modes, or null (always null for a model that is
   * not `replay:`). The sources are opened exactly as a worker opens them (the same loader, cache and
   * provider: headers and recordings parsed, nothing replayed), so a campaign is refused when it is
   * created rather than failing every attempt of the target. The message names the source as the
   * caller wrote it and nothing the caller did not write (no configured directory).
   */
  async targetError(model: string, outputModes: readonly Mode[]): Promise<string | null> {
    if (builtinKindOf(model) !== 'replay') return null;
    const written = replaySource(model).split(',');
    let index: ReplayIndex;
    try {
      index = await this.index(model);
      createReplayProvider(index);
    } catch (error) {
      if (error instanceof ReplaySourceError) return `Replay source '${written[error.source]}' ${error.problem}`;
      if (error instanceof ConfigurationError) return `'${model}': ${error.message}`;
      throw error;
    }
    const single = outputModes.filter((m) => m !== 'agent');
    if (outputModes.includes('agent') && index.trajectories.length === 0) {
      return (
        `'${model}' holds no ATIF trajectory, which the agent output mode ` +
        `replays (a result file replays text and json_schema answers).`
      );
    }
    if (single.length > 0 && index.all().length === 0) {
      return (
        `'${model}' holds only an ATIF trajectory, which replays in the agent ` +
        `output mode alone; this campaign also runs ${single.join(' and ')}.`
      );
    }
    return null;
  }

  /**
   * For a replay model, what each recorded answer cost (null where the recording has no cost), for
   * the estimate before launch; undefined for any other model.
   */
  async recordedCosts(
    model: string,
  ): Promise<((domain: string, fixtureId: string, outputMode: AnswerMode) => number | null) | undefined> {
    if (builtinKindOf(model) !== 'replay') return undefined;
    const index = await this.index(model);
    return (domain, fixtureId, outputMode) => {
      const usd = index.get(domain, fixtureId, outputMode)?.recordedScore.cost_usd;
      return typeof usd === 'number' && Number.isFinite(usd) ? usd : null;
    };
  }
}
