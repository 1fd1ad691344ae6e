export * from './types';
export {
  DockerSandboxDriver,
  OBSERVER_UID,
  SANDBOX_LABEL,
  type DockerDriverConfig,
  type DockerLimits,
} from './docker-driver';
export { LocalSandboxDriver, LOCAL_DRIVER_WARNING, type LocalDriverConfig } from './local-driver';
export { withSandbox } from './with-sandbox';
export { DEFAULT_READ_BYTES, FileRefusedError, FileTooLargeError, SessionEndedError } from './session-protocol';
export { createSandboxDriver, type CreateDriverOptions } from './create-driver';
export { resetScratchStep } from './scratch';
export { ATTEMPT_LABEL, CAMPAIGN_LABEL, DEPLOYMENT_LABEL, WORKER_LABEL } from './labels';
export { spareCpuMeter, type CpuTimes, type SpareCpuOptions } from './spare-cpu';
export { parseBatch } from './batch-script';
