import { createInterface } from 'node:readline';
import { toolsHelp } from '@gitbench/core';
import {
  DEFAULT_MANUAL_PORT,
  startManualEndpoint,
  type ManualEndpoint,
  type PendingRequest,
} from '@gitbench/providers';
import { intFlag, stringFlag, type ParsedArgs } from '../args';
import { EXIT } from '../exit';

/**
 * `gitbench manual`: serves the manual model and, unless --headless, answers it from this terminal.
 * Each request is shown compactly (the system prompt once, then what is new); the answer is a line
 * (`bash: git log --oneline`, `submit: 6`, text), or several between lines of `"""`. The side channel
 * on the same port stays open either way, so a program can answer too; the first answer counts.
 */
const HELP = `Answer with one line, or several between two lines of """:
  bash: git log --oneline         a call of a tool taking one string (the rest, lines included, is it)
  submit                          a call with an empty argument (or none)
  str_replace {"path": "a", ...}  a call with JSON arguments
  [{"name": "bash", "arguments": {"command": "ls"}}, ...]   several calls
  text: anything                  a text answer (plain text works where it does not look like a call)
Commands: :full the whole request as received · :tools the tools and their arguments · :pending the queue · :help
`;

function banner(endpoint: ManualEndpoint, defaultPort: boolean, headless: boolean): string {
  const env = defaultPort ? '' : `GITBENCH_MANUAL_URL=${endpoint.url} `;
  const side = endpoint.url.replace(/\/v1$/, '');
  return [
    `The manual model is served at ${endpoint.url} (Chat Completions, tools included).`,
    `Point an agent at it:  ${env}gitbench run <suite> --mode agent --model manual`,
    `Programs answer through ${side}/manual/requests/next?wait=30 and ` +
      `POST ${side}/manual/requests/<id>/answer {"answer": "bash: ls"}.`,
    headless
      ? 'Headless: answers come only through that side channel. Ctrl-C stops.'
      : 'Requests appear here as they arrive; :help says how to answer. Ctrl-C stops.',
    '',
  ].join('\n');
}

export async function manualCommand(args: ParsedArgs): Promise<number> {
  const port = intFlag(args, 'port', DEFAULT_MANUAL_PORT, 0);
  const host = stringFlag(args, 'host') ?? '127.0.0.1';
  const headless = args.flags.get('headless') === true;
  const out = (text: string) => process.stdout.write(text);

  let shown: PendingRequest | null = null;
  let block: string[] | null = null;
  const prompt = () => {
    if (!headless) out(shown ? (block ? '... ' : 'answer> ') : '');
  };
  const showNext = () => {
    if (headless) return;
    const next = endpoint.pending()[0] ?? null;
    if (next && next.id !== shown?.id) {
      shown = next;
      out(`\n${next.view}`);
      prompt();
    } else if (!next) shown = null;
  };

  const endpoint = await startManualEndpoint({
    port,
    host,
    onRequest: (p) => {
      if (headless) out(`request ${p.seq} (${p.id}) pending\n`);
      else if (!shown) showNext();
      else out(`\n(request ${p.seq} waits behind ${shown.id})\n`);
    },
    onSettled: (p, answer) => {
      if (headless) out(`request ${p.seq} (${p.id}) ${answer ? 'answered' : 'given up by its client'}\n`);
      if (shown?.id === p.id) {
        if (!answer) out(`\n(${p.id} was given up by its client)\n`);
        shown = null;
        block = null;
        showNext();
      }
    },
  });
  out(banner(endpoint, port === DEFAULT_MANUAL_PORT, headless));

  const stopped = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  if (!headless) {
    const lines = createInterface({ input: process.stdin, terminal: false });
    lines.on('line', (line) => {
      if (block) {
        if (line.trim() === '"""') {
          const text = block.join('\n');
          block = null;
          give(text);
        } else block.push(line);
        prompt();
        return;
      }
      const command = line.trim();
      if (command === '') return prompt();
      if (command === ':help') out(HELP);
      else if (command === ':pending')
        out(
          endpoint
            .pending()
            .map((p) => `${p.id} (request ${p.seq}, ${p.request.messages.length} messages)\n`)
            .join('') || 'nothing pending\n',
        );
      else if (!shown) out('Nothing to answer yet.\n');
      else if (command === ':full') out(`${JSON.stringify(shown.request, null, 2)}\n`);
      else if (command === ':tools') out(toolsHelp(shown.request));
      else if (command === '"""') block = [];
      else give(line);
      prompt();
    });
  }
  function give(text: string): void {
    if (!shown) return;
    try {
      const answer = endpoint.answer(shown.id, text);
      out(`✓ sent ${answer.toolCalls.length > 0 ? answer.toolCalls.map((c) => c.name).join(', ') : 'text'}\n`);
    } catch (error) {
      out(`✗ ${(error as Error).message}\n`);
    }
  }

  await stopped;
  await endpoint.close();
  process.stdin.destroy();
  return EXIT.ok;
}
