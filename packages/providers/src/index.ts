/**
 * Model providers: one interface (`Provider.complete`), one adapter per protocol, the request budget
 * and retry policy every call goes through, profiles from gitbench.json, and the judges built on top.
 */
export * from './types';
export {
  PROVIDER_KINDS,
  ProfileSet,
  loadProfiles,
  loadProfilesFile,
  findProfilesFile,
  listProfiles,
  inferProviderKind,
  profileFileSchema,
  configFileSchema,
  type ProviderKind,
  type Profile,
  type ProfileSummary,
  type CapacityGroup,
  type ConcurrencySettings,
} from './profiles';
export { RequestBudget, type BudgetLimits, type BudgetSlot, type Permit, type ScopeLimit } from './budget';
export { DEFAULT_RETRY_POLICY, backoffDelay, callWithRetries, type RetryPolicy } from './retry';
export { parseRetryAfter } from './http-errors';
export { checkStructuredOutput } from './structured';
export { PRICE_TABLE, resolveCost } from './cost';
export { createOpenAICompatibleProvider, reasoningParameters, type AdapterOptions } from './openai-compatible';
export { createOllamaProvider, ollamaThink } from './ollama';
export { createAnthropicProvider, anthropicMessages } from './anthropic';
export {
  createMockProvider,
  createNopProvider,
  createOracleProvider,
  createSimulatedProvider,
  seededUniform,
  DEFAULT_SIMULATED_CORRECTNESS,
  MOCK_ANSWER,
  SIMULATED_WRONG_ANSWER,
  type SimulatedOptions,
  type CorrectnessByDifficulty,
} from './scripted';
export { ReplayIndex, type RecordedAnswer } from './replay-index';
export {
  ReplaySourceError,
  loadReplayIndex,
  replaySourcesFromEnv,
  DEFAULT_REPLAY_MAX_BYTES,
  type ReplaySources,
} from './replay-sources';
export { createReplayProvider } from './replay';
export {
  runLlmJudge,
  runPairwiseJudge,
  judgePanelConfig,
  type JudgeMember,
  type JudgePanel,
  type LlmJudgeInput,
  type LlmJudgement,
  type PairwiseInput,
  type PairwiseJudgement,
  type PairwiseCall,
} from './judges';
export { historyJudgeAsk } from './history-judge';
export { ProviderRegistry } from './registry';
export type {
  TargetSpec,
  ResolvedTarget,
  RegistryOptions,
  LoadRegistryOptions,
  ModelDescription,
} from './registry-types';
export { budgetLimitsFromProfiles } from './profile-budgets';
export {
  BUILTIN_MODELS,
  BUILTIN_PROFILE,
  BUILTIN_USAGE,
  builtinKindOf,
  simulatedSeedOf,
  type BuiltinKind,
  type BuiltinModel,
} from './builtin-models';
export * from './agent-types';
export { createAgentChat, textToolResult, wireMessages } from './agent-chat';
export { openAICallError, toolsUnsupported } from './openai-compatible';
export {
  startManualEndpoint,
  type ManualEndpoint,
  type ManualEndpointOptions,
  type MessageAnswer,
  type PendingRequest,
} from './manual/manual-endpoint';
export { DEFAULT_MANUAL_PORT, MANUAL_MODEL, isManualModel, manualProfile } from './manual/manual-profile';
