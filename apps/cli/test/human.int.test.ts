import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '@gitbench/core';
import { readTrajectorySteps } from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { ROOT } from './cli-process';

/**
 * `gitbench human` as a person uses it: in a terminal (a pty that script(1) makes), the test types
 * each command when the shell's prompt appears. The session leaves a background process that would
 * recreate an untracked file forever, as a careless person (or a model) might; the runner kills it
 * when its command ends, so the next command finds no file and the clean the person made is what gets
 * scored. The attempt lands in Postgres as the target human:tester with every command, its exit code
 * and the time taken.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'human');
});
afterAll(async () => t?.drop());

const PROMPT = 'tester@sandbox$ ';
const SESSION = [
  'git status --short',
  'git nosuch',
  '(while true; do touch late-file; sleep 0.2; done) >/dev/null 2>&1 &',
  'git clean -fd',
  'ls late-file',
  'submit',
];

/**
 * Runs the command in a pty and types each line of the session at its prompt; resolves with what the terminal showed.
 */
function inTerminal(args: string[], env: Record<string, string>): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, path.join(ROOT, 'apps/cli/bin/gitbench.js'), ...args].map(shellQuote).join(' ');
  const proc = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...env, TERM: 'dumb' },
  });
  let screen = '';
  let typed = 0;
  proc.stdout.on('data', (c: Buffer) => {
    screen += c.toString();
    const prompts = screen.split(PROMPT).length - 1;
    while (typed < prompts && typed < SESSION.length) proc.stdin.write(`${SESSION[typed++]}\r`);
  });
  proc.stderr.on('data', (c: Buffer) => (screen += c.toString()));
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, screen: screen.replace(/\r/g, '') })));
}

describe('gitbench human', () => {
  it(
    'records a person working a fixture through a terminal: every command, its exit code, the time and the score',
    { timeout: 180_000 },
    async () => {
      const { code, screen } = await inTerminal(
        ['human', 'fixtures', '--id', 'git_clean/f001', '--name', 'tester', '--json'],
        {
          DATABASE_URL,
          GITBENCH_DATABASE_SCHEMA: t.schema,
        },
      );
      expect(code, screen).toBe(0);
      // The person saw the task as the model is given it, then each command's output with its exit code.
      expect(screen).toContain('── the task ──');
      expect(screen).toMatch(/git nosuch\n.*'nosuch' is not a git command[\s\S]*?\[exit code 1\]/);
      expect(screen).toMatch(/ls late-file\nls: cannot access 'late-file': No such file or directory\n\[exit code 2\]/);
      const report = JSON.parse(screen.slice(screen.lastIndexOf('\n{\n') + 1)) as {
        target: string;
        passed: boolean;
        commands: number;
        wallMs: number;
        campaignId: string;
        attemptId: string;
      };
      expect(report).toMatchObject({ target: 'human:tester', passed: true, commands: 6 });

      const campaign = await t.db.campaign.findUniqueOrThrow({
        where: { id: report.campaignId },
        include: { targets: true, attempts: { include: { tries: true } } },
      });
      expect(campaign.status).toBe('COMPLETED');
      expect(campaign.targets.map((x) => [x.modelId, x.outputMode, x.profile])).toEqual([
        ['human:tester', 'agent', 'human'],
      ]);
      expect((campaign.config as { fixtures: { suiteDir: string; ids: string[] } }).fixtures).toMatchObject({
        suiteDir: 'fixtures',
        ids: ['git_clean/f001'],
      });
      const [attempt] = campaign.attempts;
      expect(attempt).toMatchObject({
        id: report.attemptId,
        modelId: 'human:tester',
        domain: 'git_clean',
        fixtureId: 'f001',
        status: 'VALID_PASS',
        passed: true,
        tryCount: 1,
      });
      expect(attempt!.tries[0]).toMatchObject({ workerId: 'human', status: 'VALID_PASS' });
      // The time taken is the loop's, as for a model, and the campaign spans it.
      expect(attempt!.wallDurationMs).toBe(report.wallMs);
      expect(campaign.finishedAt!.getTime() - campaign.startedAt!.getTime()).toBeGreaterThanOrEqual(report.wallMs);

      const trajectory = await t.db.trajectory.findFirstOrThrow({ where: { attemptId: report.attemptId } });
      expect(trajectory).toMatchObject({
        model: 'human:tester',
        agent: 'a person (tester)',
        exitStatus: 'submitted',
        steps: 6,
        status: 'finished',
      });
      const steps = await readTrajectorySteps(t.db, trajectory.id);
      expect(
        steps.map((s) => [
          s.toolCalls[0]!.name,
          (s.toolCalls[0]!.arguments as { command?: string }).command ?? null,
          s.results[0]?.exitCode ?? null,
        ]),
      ).toEqual([
        ['bash', 'git status --short', 0],
        ['bash', 'git nosuch', 1],
        ['bash', SESSION[2], 0],
        ['bash', 'git clean -fd', 0],
        ['bash', 'ls late-file', 2],
        ['submit', null, null],
      ]);
      // A person's thinking is the step's model time: recorded per step, as a model's wait is.
      expect(steps.every((s) => s.modelMs >= 0 && s.toolMs >= 0)).toBe(true);
    },
  );
});
