// One file per use case: every entry point (worker job, web route, CLI command) calls these, and only
// adapts its input and output.
export * from './campaigns/prepare-campaign';
export * from './campaigns/create-campaign';
export * from './campaigns/plan-campaign';
export * from './campaigns/finish-campaign';
export * from './campaigns/cancel-campaign';
export * from './campaigns/retry-campaign';
export * from './attempts/run-attempt';
export * from './attempts/decide-settlement';
export * from './attempts/attempt-watch';
export * from './attempts/attempt-deadline';
export * from './attempts/attempt-executor';
export * from './attempts/planned-rows';
