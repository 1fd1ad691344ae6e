import { DockerSandboxDriver, type DockerLimits } from '@gitbench/sandbox';
import { afterAll, beforeAll } from 'vitest';

/**
 * A Docker sandbox driver for one test file, under a label of its own: started before the file's
 * tests and handed over by `onReady`, closed after them with every container carrying the label
 * removed. A missing sandbox image fails the file, never skips it. Returns the label, which the tests
 * pass on to what they build and run.
 */
export function useTestDriver(
  name: string,
  onReady: (driver: DockerSandboxDriver) => void,
  opts: { prestart?: number; limits?: Partial<DockerLimits> } = {},
): Record<string, string> {
  const image = process.env.GITBENCH_SANDBOX_IMAGE;
  if (!image)
    throw new Error('GITBENCH_SANDBOX_IMAGE must be set for engine integration tests (scripts/test.sh sets it)');
  const labels = { 'org.gitbench.test': `${name}-${process.pid}` };
  let driver: DockerSandboxDriver | undefined;
  beforeAll(async () => {
    driver = await new DockerSandboxDriver({ image, labels, ...opts }).init();
    onReady(driver);
  });
  afterAll(async () => {
    await driver?.close();
    await driver?.removeByLabels(labels);
  });
  return labels;
}
