export * from './judge-reply';
export * from './aggregate';
export * from './pairwise';
export { judgeConfigHash, outputHash, judgeCacheKey } from './cache-key';
export type { JudgeConfigIdentity, JudgeCacheKeyParts } from './cache-key';
export * from './judge-cache';
export * from './history-judge';
