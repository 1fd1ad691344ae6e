import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { ToolContext } from '../../src';

/** Tests only: a ToolContext over a directory of the host, with git pinned as the sandbox pins it. */
export const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: '/nonexistent',
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  LC_ALL: 'C',
  TZ: 'UTC',
};

export function hostContext(repoDir: string): ToolContext {
  const resolve = (p: string) => (isAbsolute(p) ? p : join(repoDir, p));
  return {
    repoDir,
    limits: { commandTimeoutMs: 20_000, maxToolOutputBytes: 100_000 },
    signal: new AbortController().signal,
    exec(command, options) {
      const started = Date.now();
      const r = spawnSync('bash', ['-c', command], {
        cwd: options?.cwd ? resolve(options.cwd) : repoDir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...GIT_ENV, ...options?.env },
        input: options?.stdin,
        encoding: 'utf8',
      });
      return Promise.resolve({
        command,
        exitCode: r.status ?? 1,
        stdout: r.stdout,
        stderr: r.stderr,
        timedOut: false,
        truncated: false,
        durationMs: Date.now() - started,
        stdoutBytes: Buffer.byteLength(r.stdout),
        stderrBytes: Buffer.byteLength(r.stderr),
      });
    },
    readFile(path) {
      const p = resolve(path);
      return Promise.resolve(existsSync(p) ? new Uint8Array(readFileSync(p)) : null);
    },
    writeFile(path, content) {
      const p = resolve(path);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
      return Promise.resolve();
    },
  };
}

/**
 * hostContext whose commands keep what a sandbox session keeps: head and tail of stdout, the attempt's
 * output limit unless the call asks for another (sessionToolContext's maxOutputBytes).
 */
export function cappedContext(repoDir: string, maxToolOutputBytes: number): ToolContext {
  const host = hostContext(repoDir);
  return {
    ...host,
    limits: { ...host.limits, maxToolOutputBytes },
    async exec(command, options) {
      const r = await host.exec(command, options);
      const cap = options?.maxOutputBytes ?? maxToolOutputBytes;
      const out = Buffer.from(r.stdout);
      if (out.length <= cap) return r;
      const head = Math.ceil(cap / 2);
      const stdout = `${out.subarray(0, head).toString()}${out.subarray(out.length - (cap - head)).toString()}`;
      return { ...r, stdout, truncated: true };
    },
  };
}

/** A fresh repository; `sh` runs a script in it with the pinned git environment. */
export function tempRepo(): { dir: string; sh: (script: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'ggb-tools-'));
  const sh = (script: string) =>
    execFileSync('bash', ['-c', script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...GIT_ENV },
      encoding: 'utf8',
    });
  sh('git init -q -b main');
  return { dir, sh };
}
