import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentAdapter } from './agent-adapter';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCKERFILE = path.join(PACKAGE_DIR, 'docker', 'Dockerfile');
const FORWARDER = path.join(PACKAGE_DIR, 'forwarder', 'forwarder.py');
/** The staging directory holds a finished install only when this file is there (written last). */
const DONE_MARKER = '.gitbench-staged';

export interface AgentImage {
  tag: string;
  /** The staging directory the image was built from (its package-lock.json is part of the tag). */
  stagingDir: string;
  built: boolean;
}

function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; timeoutMs: number },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (c: Buffer) => (output = (output + c.toString('utf8')).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} could not start: ${err.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 128, output });
    });
  });
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => hash.update(c))
      .once('error', reject)
      .once('end', () => resolve(hash.digest('hex')));
  });
}

/**
 * Installs the pinned agent from npm into `<stagingRoot>/<name>-<version>` on the host, once: the
 * machine reaches the npm registry, the sandbox reaches nothing. Install scripts are not run (npm's
 * default here too): every pinned agent works from its files, the native ones from the platform
 * package npm picks as an optional dependency.
 */
export async function stageAgent(adapter: AgentAdapter, stagingRoot: string): Promise<string> {
  const dir = path.join(stagingRoot, `${adapter.name}-${adapter.version}`);
  if (existsSync(path.join(dir, DONE_MARKER))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `gitbench-agent-${adapter.name}`, private: true }, null, 2)}\n`,
  );
  const spec = `${adapter.npmPackage}@${adapter.version}`;
  const res = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--omit=dev',
      '--os=linux',
      '--cpu=x64',
      '--save-exact',
      '--loglevel=error',
      spec,
    ],
    { cwd: dir, timeoutMs: 15 * 60_000 },
  );
  if (res.code !== 0) throw new Error(`npm install ${spec} failed (exit ${res.code}) in ${dir}:\n${res.output}`);
  const program = path.join(dir, 'node_modules', adapter.bin);
  if (!existsSync(program))
    throw new Error(
      `npm install ${spec} left no ${adapter.bin} in ${dir}/node_modules (its platform package did not install?)`,
    );
  writeFileSync(path.join(dir, DONE_MARKER), `${spec}\n`);
  return dir;
}

/**
 * The image's tag: a hash of everything that goes in. The installed tree is named by its
 * package-lock.json (every package's version and integrity hash), not by hashing hundreds of
 * megabytes; node, when the agent needs it, by the binary's own hash.
 */
export async function agentImageTag(
  adapter: AgentAdapter,
  sandboxImage: string,
  stagingDir: string,
  nodeBinary: string,
): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${adapter.npmPackage}@${adapter.version}\n${sandboxImage}\n`);
  hash.update(readFileSync(DOCKERFILE));
  hash.update(readFileSync(FORWARDER));
  hash.update(readFileSync(path.join(stagingDir, 'package-lock.json')));
  if (adapter.needsNode) hash.update(await sha256File(nodeBinary));
  return `gitbench-agent-${adapter.name}:${hash.digest('hex').slice(0, 12)}`;
}

export interface BuildAgentImageOptions {
  /** The sandbox image the agent image builds on (GITBENCH_SANDBOX_IMAGE). */
  sandboxImage: string;
  /** Where staged installs are kept between builds (under GITBENCH_STATE_DIR). */
  stagingRoot: string;
  /**
   * The node that runs a JavaScript agent: this process's own by default (the host's Node 20, which
   * the harness requires anyway). Copying it needs no package mirror inside the build, so the image
   * builds where only the npm registry is reachable, and its hash is part of the tag.
   */
  nodeBinary?: string;
}

export async function imageExists(tag: string): Promise<boolean> {
  return (await run('docker', ['image', 'inspect', '--format', '{{.Id}}', tag], { timeoutMs: 30_000 })).code === 0;
}

/** Builds `gitbench-agent-<name>:<hash>` on the sandbox image unless it exists; idempotent. */
export async function buildAgentImage(adapter: AgentAdapter, opts: BuildAgentImageOptions): Promise<AgentImage> {
  const nodeBinary = opts.nodeBinary ?? process.execPath;
  const stagingDir = await stageAgent(adapter, opts.stagingRoot);
  const tag = await agentImageTag(adapter, opts.sandboxImage, stagingDir, nodeBinary);
  if (await imageExists(tag)) return { tag, stagingDir, built: false };
  if (!(await imageExists(opts.sandboxImage)))
    throw new Error(`sandbox image ${opts.sandboxImage} is not available; build it with: npm run sandbox:image`);

  const context = await mkdtemp(path.join(os.tmpdir(), 'gitbench-agent-context-'));
  try {
    // Hard links: the context costs no copy of the installed tree (same file system as the staging
    // directory when both are under the state directory or /tmp; cp falls back to copying otherwise).
    const agentDir = path.join(context, 'agent');
    mkdirSync(agentDir);
    const cp = await run('cp', ['-a', '--link', path.join(stagingDir, 'node_modules'), agentDir], {
      timeoutMs: 10 * 60_000,
    });
    if (cp.code !== 0) {
      const copied = await run('cp', ['-a', path.join(stagingDir, 'node_modules'), agentDir], {
        timeoutMs: 10 * 60_000,
      });
      if (copied.code !== 0)
        throw new Error(`copying ${stagingDir}/node_modules into the build context failed:\n${copied.output}`);
    }
    writeFileSync(path.join(agentDir, 'forwarder.py'), readFileSync(FORWARDER));
    mkdirSync(path.join(context, 'bin'));
    if (adapter.needsNode) writeFileSync(path.join(context, 'bin', 'node'), readFileSync(nodeBinary), { mode: 0o755 });
    writeFileSync(path.join(context, 'Dockerfile'), readFileSync(DOCKERFILE));
    const built = await run(
      'docker',
      ['build', '-q', '--build-arg', `SANDBOX_IMAGE=${opts.sandboxImage}`, '-t', tag, context],
      { timeoutMs: 20 * 60_000 },
    );
    if (built.code !== 0) throw new Error(`docker build of ${tag} failed (exit ${built.code}):\n${built.output}`);
    return { tag, stagingDir, built: true };
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
