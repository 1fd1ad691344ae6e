import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../src/run-report';
import { gitbench, jsonOf, ROOT } from './cli-process';

/**
 * The manual model end to end: `gitbench manual` serves the endpoint, `gitbench run --mode agent
 * --model manual` works one fixture through it in a Docker sandbox, and this test is the person:
 * one answer typed at the terminal (the manual process's stdin), the others posted to the side
 * channel as a program playing the model would. The run must pass on the person's answers alone.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-manual-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

/** `gitbench manual` as a person starts it, its stdout collected as it comes. */
function startManual(args: string[]): {
  proc: ChildProcessWithoutNullStreams;
  output: () => string;
  waitFor: (re: RegExp) => Promise<RegExpMatchArray>;
} {
  const proc = spawn(process.execPath, [path.join(ROOT, 'apps/cli/bin/gitbench.js'), 'manual', ...args], {
    cwd: ROOT,
    env: process.env,
  });
  children.push(proc);
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  proc.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const waitFor = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(re);
        if (m) resolve(m);
        else if (proc.exitCode !== null) reject(new Error(`gitbench manual exited ${proc.exitCode}:\n${out}\n${err}`));
        else waiters.push(check);
      };
      check();
    });
  return { proc, output: () => out, waitFor };
}

interface Pending {
  id: string;
  seq: number;
  view: string;
  request: {
    model: string;
    messages: { role: string; content: string | null }[];
    tools?: { function: { name: string } }[];
  };
}

async function next(base: string): Promise<Pending> {
  for (;;) {
    const res = await fetch(`${base}/manual/requests/next?wait=30`);
    if (res.status === 200) return (await res.json()) as Pending;
    expect(res.status).toBe(204);
  }
}
const post = (base: string, id: string, body: unknown) =>
  fetch(`${base}/manual/requests/${id}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('gitbench manual', () => {
  it(
    'serves an agent attempt that a person answers from the terminal and a program over the side channel',
    { timeout: 180_000 },
    async () => {
      const suite = path.join(tmp, 'suite');
      cpSync(path.join(ROOT, 'fixtures/git_grep/f001.yaml'), path.join(suite, 'git_grep/f001.yaml'));
      const manual = startManual(['--port', '0']);
      const url = (await manual.waitFor(/served at (http:\/\/\S+\/v1) /))[1]!;
      const base = url.replace(/\/v1$/, '');

      const run = gitbench(['run', suite, '--mode', 'agent', '--tool-set', 'bash', '--model', 'manual', '--json'], {
        GITBENCH_MANUAL_URL: url,
      });

      // Request 1: the whole task, shown once; the person types at the terminal, a typo first.
      const first = await next(base);
      expect(first.seq).toBe(1);
      expect(first.request.model).toBe('manual');
      expect(first.request.tools?.map((t) => t.function.name)).toEqual(['bash', 'submit']);
      expect(first.view).toMatch(
        new RegExp(
          /^── request 1 \(req_1\) · model manual · 2 message\(s\) · new conversation ──\n/.source +
            /tools: bash, submit\n\[system\]\n/.source,
        ),
      );
      expect(first.view).toContain('How many lines in total call a method');
      // What the model sees, and nothing of what scores it: no expected answer, no negatives' reasons.
      const seen = JSON.stringify(first.request);
      expect(seen).not.toMatch(/numeric_exact|The number of files, not of matching lines|Misses the lines/);
      await manual.waitFor(/answer> $/);
      manual.proc.stdin.write('bsh: git status\n');
      await manual.waitFor(
        /✗ There is no tool 'bsh' in this request \(it offers bash, submit\)\. Start a text answer with 'text:'\.\n/,
      );
      manual.proc.stdin.write(':tools\n');
      await manual.waitFor(/bash\(command: string\)/);
      manual.proc.stdin.write("bash: git grep -c 'logger\\.'\n");
      await manual.waitFor(/✓ sent bash\n/);

      // Request 2: only the call made and its output; the program answers, a bad call first.
      const second = await next(base);
      expect(second.view).toMatch(
        /^── request 2 \(req_2\) · model manual · 4 message\(s\), 2 new ──\n\[assistant\] called bash\n\[tool bash\]\n/,
      );
      expect(second.view).toContain('app/orders.py:3');
      expect(second.view).not.toContain('[system]');
      const refused = await post(base, second.id, { answer: 'submit {"answer": 6}' });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        "submit: argument 'answer' must be string, not number.",
      );
      const accepted = await post(base, second.id, { answer: 'submit: 6' });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({
        answered: 'req_2',
        content: null,
        toolCalls: [{ name: 'submit', arguments: '{"answer":"6"}' }],
      });
      // The terminal moved on with it, and saw request 2 compactly too.
      await manual.waitFor(/── request 2 \(req_2\)/);

      const r = await run;
      expect(r.code, r.stderr).toBe(0);
      const report = jsonOf<RunReport>(r);
      expect(report.model).toBe('manual');
      expect(report.runs[0]).toMatchObject({
        attempts: 1,
        summary: { total_passed: 1 },
        agent: { steps: 2, toolCalls: 2 },
      });
      expect(r.stderr).toMatch(/git_grep\/f001 agent trial 1: PASS, submitted after 2 step\(s\)/);
      const pending = (await (await fetch(`${base}/manual/requests`)).json()) as { pending: unknown[] };
      expect(pending.pending).toEqual([]);
    },
  );
});
