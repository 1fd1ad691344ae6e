import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { request, type FullConfig } from '@playwright/test';
import { ROLES } from '../packages/core/src/access/roles';
import { authStatePath, E2E_USERS } from './users';

function runScript(root: string, script: string, what: string) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: process.env,
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`${what} failed (exit ${run.status})`);
}

/**
 * Users for every role, each signed in once (its cookies kept for the specs: see support.ts), the
 * upstream results as legacy campaigns, and a real worker, stopped (SIGTERM, orderly) afterwards.
 * Playwright has started the web server before this runs.
 */
export default async function globalSetup(config: FullConfig) {
  const root = path.resolve(import.meta.dirname, '..');
  runScript(root, 'e2e/seed-users.ts', 'creating the e2e users');
  const baseURL = config.projects[0]!.use.baseURL!;
  for (const role of ROLES) {
    const ctx = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
    const { email, password } = E2E_USERS[role];
    const res = await ctx.post('/api/auth/sign-in/email', { data: { email, password } });
    if (!res.ok()) throw new Error(`signing in ${email} failed: ${res.status()} ${await res.text()}`);
    await ctx.storageState({ path: path.join(root, authStatePath(role)) });
    await ctx.dispose();
  }
  // The dashboard specs browse the upstream results as legacy campaigns.
  runScript(root, 'e2e/seed-legacy.ts', 'importing the legacy campaigns');
  // Campaigns whose every attempt dashboard-figures.spec.ts knows, to check the pages' numbers against.
  runScript(root, 'e2e/seed-dashboard.ts', 'seeding the dashboard figures');
  const worker = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: root,
    env: { ...process.env, GITBENCH_HEARTBEAT_MS: '1000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker did not report ready within 30 s')), 30_000);
    worker.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    worker.on('exit', (code) => reject(new Error(`worker exited early with code ${code}`)));
  });
  return async () => {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  };
}
