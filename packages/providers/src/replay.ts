import { basename } from 'node:path';
import { ConfigurationError, hashTranslation, workspaceTranslation, type TokenUsage } from '@gitbench/core';
import { replayTrajectoryChat } from './replay-trajectory';
import { buildResult, numberOrNull, prepareRequest } from './result';
import type { AgentChatRequest, FixtureRef, Provider, TranscriptMessage } from './types';

import type { RecordedAnswer, ReplayIndex } from './replay-index';

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
