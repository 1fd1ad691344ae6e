/**
 * Labels on every sandbox a worker starts: by worker (shutdown, and orphans of a killed worker), by
 * campaign (cancel) and by attempt (an attempt's own clean-up).
 */
export const WORKER_LABEL = 'org.gitbench.worker';
export const CAMPAIGN_LABEL = 'org.gitbench.campaign';
export const ATTEMPT_LABEL = 'org.gitbench.attempt';
