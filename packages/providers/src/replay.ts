import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import {
  type AnswerMode,
  ConfigurationError,
  hashTranslation,
  workspaceTranslation,
  LegacyEnvelopeError,
  legacyScoreOutputMode,
  parseLegacyEnvelope,
  type LegacyScore,
  type TokenUsage,
} from '@gitbench/core';
import { looksLikeAtif, parseAtifTrajectory, replayTrajectoryChat, type RecordedTrajectory } from './replay-trajectory';
import { buildResult, numberOrNull, prepareRequest } from './result';
import type { AgentChatRequest, FixtureRef, Provider, TranscriptMessage } from './types';

export interface RecordedAnswer {
  file: string;
  model: string;
  domain: string;
  fixtureId: string;
  outputMode: AnswerMode;
  /** The model's reply as received (in json_schema mode, the JSON text). */
  reply: string;
  /** The prompt upstream rendered, when its transcript kept it: it shows which commit ids the model saw. */
  recordedPrompt: string | null;
  /** The upstream verdict, so a replayed run can report agreement with it. */
  recordedPassed: boolean;
  recordedScore: LegacyScore;
}

function replayKey(domain: string, fixtureId: string, outputMode: AnswerMode): string {
  return `${domain}/${fixtureId}/${outputMode}`;
}

function lastMessage(score: LegacyScore, role: string): string | null {
  const message = [...(score.transcript ?? [])].reverse().find((m) => m.role === role);
  return typeof message?.content === 'string' ? message.content : null;
}

/** The assistant's last message as recorded; the text upstream scored may have been post-processed. */
function recordedReply(score: LegacyScore, outputMode: AnswerMode): string {
  const assistant = lastMessage(score, 'assistant');
  if (assistant !== null) return assistant;
  if (outputMode === 'json_schema' && score.raw_structured_output) return score.raw_structured_output;
  return score.model_output ?? '';
}

/**
 * The recorded reply with upstream's commit ids mapped onto the repository the request is about.
 * Upstream built its repositories with real clocks, so the ids its model named exist only there; the
 * recorded prompt shows each id next to its subject, which names the same commit in ours. Likewise the
 * temporary workspace it built in, which an answer run as commands may `cd` into.
 */
function replyForRepository(
  recorded: RecordedAnswer,
  fixture: FixtureRef,
): { output: string; mapped: Record<string, string> | null; workspaceMapped: boolean } {
  if (recorded.recordedPrompt === null) return { output: recorded.reply, mapped: null, workspaceMapped: false };
  // A workspace path becomes a shell variable, which only a plain-text command answer can carry.
  const paths =
    fixture.answerIsRun && fixture.repoDir && recorded.outputMode === 'text'
      ? workspaceTranslation(recorded.recordedPrompt, fixture.repoDir)
      : null;
  const located = paths ? paths.translate(recorded.reply) : recorded.reply;
  const translation =
    fixture.commits && fixture.commits.length > 0 ? hashTranslation(recorded.recordedPrompt, fixture.commits) : null;
  const output = translation ? translation.translate(located) : located;
  const mapped = translation && output !== located ? Object.fromEntries(translation.map) : null;
  return { output, mapped, workspaceMapped: located !== recorded.reply };
}

/** Answers recorded in result envelopes, keyed by benchmark, fixture id and output mode. */
export class ReplayIndex {
  private readonly answers = new Map<string, RecordedAnswer>();
  readonly files: string[] = [];

  /** ATIF trajectories among the sources: what agent mode plays back (one per replay model). */
  readonly trajectories: RecordedTrajectory[] = [];

  add(envelopeJson: unknown, file: string): void {
    if (looksLikeAtif(envelopeJson)) {
      this.trajectories.push(parseAtifTrajectory(envelopeJson, basename(file)));
      this.files.push(file);
      return;
    }
    let envelope;
    try {
      envelope = parseLegacyEnvelope(file, envelopeJson);
    } catch (error) {
      if (!(error instanceof LegacyEnvelopeError)) throw error;
      // The parser's message may quote the file's content; the replay source's own name is enough.
      throw new ConfigurationError('bad_replay_file', `Replay file ${basename(file)} is not a GitBench result file.`);
    }
    this.files.push(file);
    for (const benchmark of envelope.results) {
      for (const score of benchmark.scores) {
        const outputMode = legacyScoreOutputMode(score, envelope);
        this.answers.set(replayKey(benchmark.benchmark, score.fixture_id, outputMode), {
          file,
          model: envelope.model,
          domain: benchmark.benchmark,
          fixtureId: score.fixture_id,
          outputMode,
          reply: recordedReply(score, outputMode),
          recordedPrompt: lastMessage(score, 'user'),
          recordedPassed: score.passed,
          recordedScore: score,
        });
      }
    }
  }

  get(domain: string, fixtureId: string, outputMode: AnswerMode): RecordedAnswer | undefined {
    return this.answers.get(replayKey(domain, fixtureId, outputMode));
  }

  all(): RecordedAnswer[] {
    return [...this.answers.values()];
  }
}

/** Largest replay file read (GITBENCH_REPLAY_MAX_BYTES); upstream's result files are about 200 KB. */
export const DEFAULT_REPLAY_MAX_BYTES = 32 * 1024 * 1024;

/** Where replay may read, and how much of one file. */
export interface ReplaySources {
  /** Directories replay sources must lie in, after symbolic links are resolved. */
  dirs: readonly string[];
  maxBytes?: number;
}

/**
 * The configured replay directories: GITBENCH_REPLAY_DIRS (separated by the platform's path
 * delimiter, `:`), else the upstream harness's results (GITBENCH_UPSTREAM_DIR, else
 * ../shared/gitbench-upstream beside the checkout). Relative entries resolve against `cwd`.
 */
export function replaySourcesFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): ReplaySources {
  const configured = env['GITBENCH_REPLAY_DIRS']
    ?.split(delimiter)
    .map((d) => d.trim())
    .filter(Boolean);
  const upstream = env['GITBENCH_UPSTREAM_DIR'] ?? '../shared/gitbench-upstream';
  const dirs = (configured && configured.length > 0 ? configured : [join(upstream, 'results')]).map((d) =>
    resolve(cwd, d),
  );
  const max = Number(env['GITBENCH_REPLAY_MAX_BYTES']);
  return { dirs, maxBytes: Number.isInteger(max) && max > 0 ? max : DEFAULT_REPLAY_MAX_BYTES };
}

const REFUSED =
  'is not a readable result file or directory inside the configured replay directories (GITBENCH_REPLAY_DIRS).';
const MISSING = 'does not exist in the configured replay directories (GITBENCH_REPLAY_DIRS).';
const OUTSIDE = 'lies outside the configured replay directories (GITBENCH_REPLAY_DIRS).';

/** A source's place: every message names it by its position, never by the path it was given or found at. */
const nth = (i: number, of: number) => (of > 1 ? `Replay source ${i + 1} of ${of}` : 'The replay source');

/**
 * A replay source that cannot be replayed. `message` names the source by its position only (it is kept
 * with every attempt); `problem` is the same finding without a subject, for a caller that names the
 * source as its user typed it (campaign creation), and `source` is which of the sources it is.
 */
export class ReplaySourceError extends ConfigurationError {
  constructor(
    readonly source: number,
    readonly problem: string,
    message: string,
  ) {
    super('bad_replay_file', message);
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(sep));
}

/**
 * The source's real path when it resolves (symbolic links followed) inside a configured directory;
 * else whether it is `outside` them (decided on the path as written before anything is looked at, or
 * after a symbolic link led out) or `missing` from them.
 */
async function confine(
  source: string,
  dirs: readonly string[],
): Promise<{ real: string; dir: string } | 'missing' | 'outside'> {
  const given = dirs.map((d) => resolve(d));
  const realDirs = (await Promise.all(given.map((d) => realpath(d).catch(() => null)))).filter(
    (d): d is string => d !== null,
  );
  let candidates: string[];
  if (isAbsolute(source)) {
    const path = resolve(source);
    if (![...given, ...realDirs].some((d) => inside(d, path))) return 'outside';
    candidates = [path];
  } else {
    const written = normalize(source);
    if (written === '..' || written.startsWith(`..${sep}`)) return 'outside';
    candidates = realDirs.map((d) => resolve(d, source));
  }
  let escaped = false;
  for (const candidate of candidates) {
    const real = await realpath(candidate).catch(() => null);
    if (real === null) continue;
    const dir = realDirs.find((d) => inside(d, real));
    if (dir) return { real, dir };
    escaped = true;
  }
  return escaped ? 'outside' : 'missing';
}

/**
 * Reads a regular file, no more than `maxBytes`: opened without following a last symbolic link and
 * without blocking on a FIFO, then checked to be a plain file (no device, pipe or socket).
 */
async function readCapped(file: string, maxBytes: number): Promise<string | 'not_file' | 'too_large'> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return 'not_file';
    if (info.size > maxBytes) return 'too_large';
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
      if (read > maxBytes) return 'too_large';
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Loads one result file, or every `*.json` in a directory, from the configured replay directories
 * only: a source must resolve (symbolic links followed) inside one of them, must be a regular file or
 * directory, and is read no further than the size cap. Messages never repeat a path or a file's content.
 */
export async function loadReplayIndex(paths: string | string[], sources: ReplaySources): Promise<ReplayIndex> {
  const index = new ReplayIndex();
  const list = Array.isArray(paths) ? paths : [paths];
  const maxBytes = sources.maxBytes ?? DEFAULT_REPLAY_MAX_BYTES;
  for (const [i, source] of list.entries()) {
    const refuse = (problem: string, message = `${nth(i, list.length)} ${problem}`) =>
      new ReplaySourceError(i, problem, message);
    const found = source.includes('\0') ? 'outside' : await confine(source, sources.dirs);
    if (found === 'missing') throw refuse(MISSING);
    if (found === 'outside') throw refuse(OUTSIDE);
    const entries = await readdir(found.real, { withFileTypes: true }).catch(() => null);
    const files = entries
      ? entries
          .filter((e) => e.name.endsWith('.json') && e.isFile())
          .map((e) => join(found.real, e.name))
          .sort()
      : [found.real];
    for (const file of files) {
      const label = relative(found.dir, file) || basename(file);
      const text = await readCapped(file, maxBytes).catch(() => 'not_file' as const);
      if (text === 'not_file') throw refuse(REFUSED);
      if (text === 'too_large') throw refuse(`is larger than ${maxBytes} bytes (GITBENCH_REPLAY_MAX_BYTES).`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw refuse('is not valid JSON.');
      }
      try {
        index.add(json, label);
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error;
        // The message already names the file (by its name inside the replay directory, never its content).
        throw refuse(`cannot be replayed: ${error.message}`, error.message);
      }
    }
  }
  return index;
}

/**
 * Replays recorded answers with their recorded tokens, cost and API time, so demos and tests run on
 * real model behaviour without calling anything. A fixture with no recording is a configuration error.
 */
export function createReplayProvider(index: ReplayIndex): Provider {
  const trajectory = index.trajectories[0];
  if (index.trajectories.length > 1) {
    throw new ConfigurationError(
      'bad_replay_file',
      `A replay model plays one recorded trajectory; this source holds ${index.trajectories.length}. Name one file.`,
    );
  }
  return {
    name: `replay (${index.files.map((f) => basename(f)).join(', ')})`,
    kind: 'replay',
    // Agent mode plays the recorded trajectory; a source of single answers has no agent side.
    ...(trajectory
      ? { chat: (request: AgentChatRequest) => Promise.resolve(replayTrajectoryChat(trajectory, request)) }
      : {}),
    async complete(request) {
      const model = prepareRequest(request);
      const fixture = request.fixture;
      if (!fixture)
        throw new ConfigurationError(
          'replay_without_fixture',
          'Replay needs the fixture (domain and id) in the request.',
        );
      const recorded = index.get(fixture.domain, fixture.id, request.outputMode);
      if (!recorded) {
        throw new ConfigurationError(
          'replay_missing',
          `No recorded ${request.outputMode} answer for fixture ${fixture.domain}/${fixture.id} ` +
            `in ${index.files.map((f) => basename(f)).join(', ') || 'the replay files'}.`,
        );
      }
      const s = recorded.recordedScore;
      const usage: TokenUsage = {
        inputTokens: numberOrNull(s.input_tokens),
        outputTokens: numberOrNull(s.output_tokens),
        reasoningTokens: numberOrNull(s.reasoning_tokens),
        totalTokens: numberOrNull(s.total_tokens),
      };
      const recordedRoute = s.provider_route_metadata ?? null;
      const { output, mapped, workspaceMapped } = replyForRepository(recorded, fixture);
      const result = buildResult(request, model, {
        output,
        reasoning: null,
        usage,
        cost:
          typeof s.cost_usd === 'number' ? { source: 'provider', usd: s.cost_usd } : { source: 'unknown', usd: null },
        apiDurationMs: numberOrNull(s.api_duration_ms) ?? 0,
        route: {
          provider: 'replay',
          profile: 'replay',
          baseUrl: null,
          requestedModel: model.baseModel,
          servedModel: typeof recordedRoute?.model_id === 'string' ? recordedRoute.model_id : recorded.model,
          responseId: null,
          upstreamProvider: null,
          simulated: false,
          replay: {
            file: recorded.file,
            recordedRoute,
            recordedVerdict: { passed: s.passed, similarity: s.similarity ?? null, error: s.error ?? null },
          },
        },
        requestConfig: {
          provider: 'replay',
          outputMode: request.outputMode,
          recorded: s.request_config ?? null,
          ...(mapped ? { commitIdsMapped: mapped } : {}),
        },
        retries: [],
      });
      // Keep the transcript as it was recorded, reasoning included, rather than a reconstruction.
      const transcript = (s.transcript ?? []).flatMap((m): TranscriptMessage[] =>
        (m.role === 'user' || m.role === 'assistant' || m.role === 'system') && typeof m.content === 'string'
          ? [
              {
                role: m.role,
                content: m.content,
                ...(typeof m.reasoning === 'string' ? { reasoning: m.reasoning } : {}),
              },
            ]
          : [],
      );
      const flags = [
        ...result.flags,
        ...(mapped ? ['replay_commit_ids_mapped'] : []),
        ...(workspaceMapped ? ['replay_workspace_mapped'] : []),
      ];
      return transcript.length > 0 ? { ...result, transcript, flags } : { ...result, flags };
    },
  };
}
