import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { useOwnDatabaseAndQueue } from './e2e/environment';

// A database and queue apart from the demo's: the tests' campaigns never reach its leaderboard or worker.
useOwnDatabaseAndQueue(process.env);

// Browser tests run the built web app against real services, in Debian's Chromium (Playwright's own
// browser download cannot reach its host from these machines).
const port = Number(process.env.GITBENCH_E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${port}`;
// Replay reads only from configured directories: the upstream results and the specs' own recordings
// (set here so that the web server and the worker global-setup starts both see them).
const E2E_REPLAY_DIR = path.resolve(import.meta.dirname, 'test-results/e2e-replay');
process.env['GITBENCH_REPLAY_DIRS'] ??= [
  path.resolve(import.meta.dirname, process.env['GITBENCH_UPSTREAM_DIR'] ?? '../shared/gitbench-upstream', 'results'),
  E2E_REPLAY_DIR,
].join(path.delimiter);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A committed test.only would run that test alone and drop every other browser test silently.
  forbidOnly: true,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL,
    // Signed in as a member unless a spec says otherwise (see e2e/support.ts: signedInAs, anonymous).
    storageState: 'test-results/e2e-auth/member.json',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-quic',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The tests' own database first (e2e/environment.ts): the server's readiness check reads it.
    command: `node --import tsx e2e/prepare-database.ts && npm run start -w @gitbench/web -- -p ${port} -H 127.0.0.1`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // Added to process.env: `npm run start -w` runs in apps/web, and suite directories resolve against the repository
    // root.
    env: { GITBENCH_ROOT: process.env.GITBENCH_ROOT ?? path.resolve(import.meta.dirname) },
  },
});
