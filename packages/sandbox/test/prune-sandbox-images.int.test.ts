import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

/**
 * docker/prune-sandbox-images.sh on an engine other checkouts share: every image here is one this test tags
 * itself, under a repository name no one else uses, so nothing of anyone else's is ever in reach. A second
 * repository whose name only starts with the first's (as gitbench-sandbox-base does gitbench-sandbox's) stands
 * for every other name.
 */
const SCRIPT = join(import.meta.dirname, '../../../docker/prune-sandbox-images.sh');
const repository = `gitbench-prune-test-${process.pid}-${Date.now()}`;
const otherName = `${repository}-base`;
const tag = (name: string) => `${repository}:${name}`;
const label = `org.gitbench.test=prune-sandbox-images-${process.pid}`;
let container = '';

const docker = async (...args: string[]) => (await run('docker', args)).stdout.trim();

/** A distinct image (its own id) on top of the sandbox image: a label is all it adds. */
async function build(ref: string): Promise<void> {
  const child = execFile('docker', ['build', '-q', '-t', ref, '-']);
  child.stdin!.end(`FROM ${image}\nLABEL org.gitbench.test.image="${ref}"\n`);
  await new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`docker build ${ref}: exit ${code}`)))),
  );
}

const tags = async (name: string) =>
  (await docker('image', 'ls', '--format', '{{.Repository}}:{{.Tag}}', name)).split('\n').filter(Boolean).sort();

const prune = (...args: string[]) => run('bash', [SCRIPT, '--repository', repository, ...args]);

beforeAll(async () => {
  for (const name of ['current', 'old', 'running']) await build(tag(name));
  await build(`${otherName}:old`);
  container = await docker(
    'run',
    '-d',
    '--network',
    'none',
    '--label',
    label,
    '--entrypoint',
    'sleep',
    tag('running'),
    '600',
  );
}, 120_000);

afterAll(async () => {
  if (container) await docker('rm', '-f', container);
  const mine = [...(await tags(repository)), ...(await tags(otherName))];
  if (mine.length) await docker('image', 'rm', ...mine);
});

describe('prune-sandbox-images.sh', () => {
  it('keeps images younger than the minimum age', async () => {
    const { stderr } = await prune('--min-age-hours', '1', tag('current'));
    expect(await tags(repository)).toEqual([tag('current'), tag('old'), tag('running')]);
    expect(stderr).toMatch(/0 old one\(s\) removed, 2 other\(s\) kept/);
  });

  it("removes its repository's other tags, never the current one, one a container uses, or another name", async () => {
    const { stderr } = await prune('--min-age-hours', '0', tag('current'));
    expect(await tags(repository)).toEqual([tag('current'), tag('running')]);
    expect(await tags(otherName)).toEqual([`${otherName}:old`]);
    expect(stderr).toMatch(new RegExp(`removed the old sandbox image ${tag('old')}`));
    expect(stderr).toMatch(/1 old one\(s\) removed, 1 other\(s\) kept/);
  });

  it('refuses a current tag of another repository, or one that does not exist, removing nothing', async () => {
    await expect(prune('--min-age-hours', '0', `${otherName}:old`)).rejects.toThrow(/is not a tag of/);
    await expect(prune('--min-age-hours', '0', tag('missing'))).rejects.toThrow(/does not exist/);
    expect(await tags(repository)).toEqual([tag('current'), tag('running')]);
  });
});
