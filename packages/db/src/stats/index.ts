export * from './refresh-campaign-stats';
export * from './refresh-stale';
export * from './family-stats';
export * from './agent-stats';
export * from './target-sums';
