import type { AttemptSandbox } from '@gitbench/core';
import { CopyButton } from './copy-button';
import { Pre } from './evidence';

type AttemptSandboxEvidence = Extract<AttemptSandbox, { evidence: unknown }>['evidence'];

type Exec = AttemptSandboxEvidence['answer'][number];

/** Commands that carry a payload (a staged file as base64, say) run to tens of kilobytes: the head says what it is. */
const COMMAND_SHOWN = 400;
function shownCommand(command: string): string {
  return command.length <= COMMAND_SHOWN
    ? command
    : `${command.slice(0, COMMAND_SHOWN)}… (${command.length - COMMAND_SHOWN} more characters)`;
}

function ExecItem({ e, label }: { e: Exec; label: string }) {
  return (
    <li className="space-y-1">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-medium text-slate-600">{label}</span>
        <code className="max-w-full whitespace-pre-wrap break-all terminal rounded px-2 py-0.5">
          $ {shownCommand(e.command)}
        </code>
        <CopyButton text={e.command} label="command" />
        <span className={e.exitCode === 0 ? 'text-emerald-700' : 'text-rose-700'}>exit {e.exitCode ?? '?'}</span>
        {e.durationMs !== undefined ? <span className="text-slate-500">{e.durationMs} ms</span> : null}
        {e.timedOut ? <span className="text-rose-700">timed out</span> : null}
        {e.truncated ? <span className="text-amber-700">output truncated</span> : null}
      </div>
      {e.stdout ? (
        <Pre label="stdout" copy="stdout">
          {e.stdout}
        </Pre>
      ) : null}
      {e.stderr ? (
        <Pre label="stderr" copy="stderr">
          {e.stderr}
        </Pre>
      ) : null}
      {!e.stdout && !e.stderr ? <p className="text-xs text-slate-500">(no output)</p> : null}
    </li>
  );
}

/** Commands the sandbox ran for this try: the answer's commands, then the scorer's look-ups. */
export function SandboxEvidenceView({ sandbox }: { sandbox: AttemptSandbox | null }) {
  if (!sandbox) {
    return (
      <p className="text-sm text-slate-600">
        No sandbox ran for this try: it was scored on the text of the answer alone.
      </p>
    );
  }
  if (sandbox.kind === 'none') {
    // The engine's reason reads "sandbox: none (scored on text)" or "(evidence read from the recorded prompt)".
    const reason = /\(([^)]*)\)/.exec(sandbox.reason)?.[1];
    const why = !reason || reason === 'scored on text' ? 'the answer was scored on its text alone' : reason;
    return <p className="text-sm text-slate-600">No sandbox ran for this try: {why}.</p>;
  }
  const ev = sandbox.evidence;
  const answer = ev.answer;
  const probes = Object.entries(ev.probes);
  const other = sandbox.aborted ? { aborted: sandbox.aborted } : {};
  return (
    <div className="space-y-3" data-testid="sandbox-evidence">
      {sandbox.atBuild ? (
        <p className="text-xs text-slate-600" data-testid="sandbox-at-build">
          The answer runs no command, so this try needed no sandbox of its own: the scorer&apos;s look-ups below were
          read once on the fixture&apos;s repository as built, in its build&apos;s {String(sandbox.kind)} sandbox from
          image <code>{String(sandbox.image)}</code>
          {sandbox.imageId ? <span className="font-mono"> ({sandbox.imageId.slice(0, 19)})</span> : null}.
        </p>
      ) : sandbox.image ? (
        <p className="text-xs text-slate-600">
          Ran in a fresh {String(sandbox.kind ?? '')} sandbox from image <code>{String(sandbox.image)}</code>
          {sandbox.imageId ? <span className="font-mono"> ({sandbox.imageId.slice(0, 19)})</span> : null}
          {sandbox.isolated === true ? ', without network' : ''}
          {typeof sandbox.durationMs === 'number' ? `, ${(sandbox.durationMs / 1000).toFixed(1)} s` : ''}.
        </p>
      ) : null}
      {answer.length > 0 ? (
        <div>
          <h3 className="text-sm font-medium">Answer commands</h3>
          {ev.stoppedAt !== undefined ? (
            <p className="text-xs text-rose-700">Stopped at command {ev.stoppedAt + 1}: it failed.</p>
          ) : null}
          <ol className="mt-2 space-y-3">
            {answer.map((e, i) => (
              <ExecItem key={i} e={e} label={`#${i + 1}`} />
            ))}
          </ol>
        </div>
      ) : (
        <p className="text-sm text-slate-600">The answer ran no commands.</p>
      )}
      {probes.length > 0 ? (
        <div>
          <h3 className="text-sm font-medium">Repository after the answer: the scorer&apos;s look-ups</h3>
          <ol className="mt-2 space-y-3">
            {probes.map(([id, e]) => (
              <ExecItem key={id} e={e} label={id} />
            ))}
          </ol>
        </div>
      ) : null}
      {Object.keys(other).length > 0 ? <Pre>{JSON.stringify(other, null, 2)}</Pre> : null}
    </div>
  );
}
