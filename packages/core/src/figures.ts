/**
 * What reading a campaign's figures takes, and nothing more: attempt statuses, completeness, fixture
 * series and rates, a target's figures, the agent exit statuses, ids and modes. The whole of core
 * brings its schemas (zod) and fixture parsing (yaml) with it, which was most of the CPU a
 * `gitbench campaign status` spent before its first query; the summaries that a reader polls
 * import this entry (`@gitbench/core/figures`) instead. figures.test.ts holds it to that.
 */
export * from './campaign/attempt-status';
export * from './aggregation/attempt-row';
export * from './aggregation/completeness';
export * from './aggregation/rate';
export * from './aggregation/series';
export * from './aggregation/pass-any';
export * from './aggregation/resources';
export * from './aggregation/target-figures';
export * from './agent/exit-status';
export * from './ids';
export * from './mode';
