/**
 * `npx tsx scripts/bench-channel.ts [--mb N]`: what a flood on the sandbox's channel costs the host.
 * A line of N MB (default 30) with no newline, in 64 KiB chunks as Docker's stream delivers them, fed
 * to the batch reader and to an agent session's connection: prints the CPU time and the memory each
 * took, and what each concluded. (Before the strict readers, 30 MB cost the worker 12.9 s of CPU and
 * 285 MB: the buffer was copied at every chunk.)
 */
import { BatchOutputReader } from '../packages/sandbox/src/batch-output-reader';
import { RunnerConnection } from '../packages/sandbox/src/session-protocol';

const argv = process.argv.slice(2);
const mb = Number(argv[argv.indexOf('--mb') + 1] ?? 30) || 30;
const chunk = Buffer.alloc(64 * 1024, 0x78);
const chunks = Math.ceil((mb * 1024 * 1024) / chunk.length);

function measure(label: string, push: (c: Buffer) => void, verdict: () => string): void {
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < chunks; i++) push(chunk);
  const cpu = process.cpuUsage(cpu0);
  const rss = process.memoryUsage().rss - rss0;
  console.log(
    `${label.padEnd(28)} ${mb} MB: ${((cpu.user + cpu.system) / 1000).toFixed(1)} ` +
      `ms CPU, RSS ${(rss / 1024 / 1024).toFixed(1)} MB more; ${verdict()}`,
  );
}

const batch = new BatchOutputReader({ groups: [{ stopOnFailure: false, steps: [{ id: 'a', command: 'true' }] }] });
measure(
  'batch reader',
  (c) => batch.push(c),
  () => `refused: ${batch.broken?.reason ?? 'no'}`,
);
let lost = '';
const session = new RunnerConnection(
  () => undefined,
  (reason) => (lost = reason),
);
void session.exec('true', { cwd: '/work' }).catch(() => undefined);
// The request is sent on the next tick; the flood then arrives as its reply.
await new Promise((resolve) => setTimeout(resolve, 0));
measure(
  'session connection',
  (c) => session.push(c),
  () => `ended: ${lost ? lost.slice(0, 60) : 'no'}`,
);
