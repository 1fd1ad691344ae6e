import { basename } from 'node:path';
import {
  type AnswerMode,
  ConfigurationError,
  LegacyEnvelopeError,
  legacyScoreOutputMode,
  parseLegacyEnvelope,
  type LegacyScore,
} from '@gitbench/core';
import { looksLikeAtif, parseAtifTrajectory, type RecordedTrajectory } from './replay-trajectory';

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
