export * from './types';
export { sequenceRatio } from './difflib';
export { extractCommands, stripWrappingFence } from './extract-commands';
export type { CommandExtraction } from './extract-commands';
export { shellWords, ShellWordsError } from './shell-words';
export { FileBlocksError, parseFileBlocks, normalizeFileContent } from './file-blocks';
export type { FileBlocks } from './file-blocks';
export { scorers, getScorer, isScoringType, runScorer, UnknownScoringTypeError } from './registry';
export { judgeVerdict } from './scorers/llm-judge';
export { ANSWER_RUNNING_DOMAINS, answerIsRun, LINE_SET_DOMAINS, runsAnswer } from './domain-rules';
export { ANSWER_ENV, MAX_ANSWER_COMMANDS } from './scorers/state-assertions';
export { COMMIT_LOG_PROBE, readsOnly, REFLOG_PROBE } from './probes';
export { evidenceFromRecordedPrompt } from './recorded-evidence';
export {
  configKeysRead,
  forgedObjects,
  LOOKUP_HOME,
  LOOKUP_OBJECTS_CHECK,
  LOOKUP_RESTORED_FILES,
  lookupConfigPy,
  lookupEnvironment,
  type BuiltGitFiles,
} from './lookup-environment';
export { AMBIGUOUS_MARK, gitCommandRefNames, namesGuard, refNamesIn } from './ref-name-guard';
