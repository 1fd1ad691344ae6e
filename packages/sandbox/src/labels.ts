/**
 * Labels the worker puts on sandboxes: by deployment and worker (its shutdown, and the orphans of a killed worker),
 * by campaign (cancel, from the web or the CLI) and by attempt (the attempt's own clean-up).
 * Containers started ahead of need carry only the worker's label in Docker; the campaign and attempt
 * labels of a one-shot sandbox in use are known to the driver that runs it (see runOnce), so a cancel
 * from another process reaches those through the worker, which stops them on its next heartbeat.
 */
export const WORKER_LABEL = 'org.gitbench.worker';
/**
 * The deployment (database and queue) a worker serves. Deployments may share a Docker engine; one
 * deployment's workers know only their own peers, so they clean up only their own deployment's orphans.
 */
export const DEPLOYMENT_LABEL = 'org.gitbench.deployment';
export const CAMPAIGN_LABEL = 'org.gitbench.campaign';
export const ATTEMPT_LABEL = 'org.gitbench.attempt';
