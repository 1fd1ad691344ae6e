/**
 * The engine composes the pure domain (core) with a sandbox driver and a model: it builds fixture
 * repositories, runs what scorers plan inside sandboxes, and produces scored attempts. Used by the CLI
 * and the worker alike; it knows nothing of Postgres or the queue.
 */
export type { AttemptOutcome, AttemptResult, AttemptHashes, AttemptSandbox } from './attempt-result';
export {
  buildFixtureRepositories,
  buildFixtureRepository,
  type BuildManyOptions,
  type BuildOptions,
} from './build-fixture-repository';
export { type BuildOutcome } from './fixture-build-outcome';
export { fixtureBuildKey, fixtureBuildKeyParts } from './fixture-build-steps';
export { FixtureSetupError, SandboxInfraError } from './errors';
export {
  commandOutputBytes,
  DEFAULT_MAX_ANSWER_COMMANDS,
  DEFAULT_MAX_ATTEMPT_OUTPUT_BYTES,
  executePlan,
  type ExecutePlanOptions,
  type PlanExecution,
} from './execute-plan';
export {
  repoDirOf,
  type BuiltSnapshot,
  type ContextResult,
  type FixtureSnapshot,
  type RepoArchive,
} from './fixture-snapshot';
export { gatherContext } from './gather-context';
export {
  loadSuiteDir,
  readSuiteCalibration,
  SuiteDirError,
  type LoadedSuiteDir,
  type SuiteCache,
  type SuiteCalibration,
} from './load-suite-dir';
export { mapPool } from './map-pool';
export { fixtureRef, type ModelClient, type ModelResponse } from './model-client';
export { referenceAnswer } from './reference-answer';
export { readRecordedScores } from './read-recorded-scores';
export {
  rescoreRecorded,
  type RecordedScore,
  type RescoreDisagreement,
  type RescoreSkip,
  type RescoreSummary,
} from './rescore-legacy';
export { evidenceOfRun } from './evidence-of-run';
export { executeAttempt, type AttemptRun, type ExecuteAttemptInput } from './execute-attempt';
export type { AttemptJudge } from './judge-history-attempt';
export { isScoredEntry, runSuite, whyNotScored, type SuiteRunEntry, type SuiteRunOptions } from './run-suite';
export {
  replayAgreement,
  type AgreementTally,
  type ReplayAgreement,
  type ReplayDisagreement,
  type ReplaySkip,
} from './replay-agreement';
export { judgeAttempt, withJudgement, type JudgeAttemptInput } from './judge-attempt';
export { judgeGgbAttempt, type JudgeGgbAttemptInput, type GgbJudged } from './ggb-judge';
export { scoreAttempt, type ScoreAttemptInput } from './score-attempt';
export { selfcheckFixture, selfcheckSuite, type FixtureSelfcheck, type SelfcheckSummary } from './selfcheck-fixture';
export { expectedStructured, toScoredText } from './structured-answer';
export { toUpstreamEnvelope, type EnvelopeMeta } from './upstream-envelope';
export { detectProductVersion } from './product-version';
export { sessionToolContext, type SessionToolContextInput } from './agent/session-tool-context';
export { parseRepoState, repoStateScript, type RepoSnapshot } from './agent/repo-state';
export { runAgent, validateCall, MAX_FORMAT_STRIKES, type AgentRunResult, type RunAgentInput } from './agent/run-agent';
export { repoStateReader, sessionRepoStateReader, type RepoStateReader } from './agent/repo-state-reader';
export { parseLeakedToolCalls } from './agent/parse-calls';
export { agentSystemPrompt, continueMessage, tmpSentence } from './agent/agent-prompt';
export { builtinAgent, nopAgent, oracleAgent, simulatedAgent, type BuiltinAgentInput } from './agent/builtin-agents';
export { runAgentAttempt } from './agent/agent-attempt';
export type {
  AgentAttemptInput,
  AgentAttemptOptions,
  AgentAttemptRecord,
  ThirdPartyAgentTarget,
} from './agent/agent-attempt-input';
export { agentTaskPrompt, thirdPartyTaskPrompt } from './agent/agent-task-prompt';
export { agentResponse } from './agent/agent-response';
export { gatewayBackend, runThirdPartyAgent, type ThirdPartyRun } from './agent/third-party-agent';
export { AGENT_SANDBOX_LIMITS, openAgentTarget, type AgentTargetOptions } from './agent/third-party-target';
// The third-party agents an app may offer (name, version, protocol), without each app depending on the adapters.
export { describeAgents } from '@gitbench/agents';
export { referenceShellCommands } from './agent/builtin-agents';
export { judgeUsageOf } from './judge-usage';
export { attemptRows, type AttemptRows } from './attempt-rows';
