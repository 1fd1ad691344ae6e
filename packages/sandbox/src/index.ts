export * from './types';
export { CAMPAIGN_LABEL, DockerSandboxDriver, SANDBOX_LABEL, type DockerDriverConfig, type DockerLimits } from './docker-driver';
export { LocalSandboxDriver, LOCAL_DRIVER_WARNING, type LocalDriverConfig } from './local-driver';
export { withSandbox } from './with-sandbox';
export { createSandboxDriver, type CreateDriverOptions } from './create-driver';
