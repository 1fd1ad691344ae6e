'use client';

import { callLabel, mainArgument, resultLabel, type StepPart, type ViewStep } from '@/lib/trajectory/view-model';
import { Highlighted } from './highlighted';
import { ShowAll } from './show-all';
import { ms } from './step-format';
import { CopyButton } from '../copy-button';

type ToolCallOfStep = ViewStep['toolCalls'][number];
type ToolResultOfStep = ViewStep['results'][number];
type FetchPart = (index: number, part: StepPart) => Promise<string>;

/** A tool's output; `complete` (not a clipped preview) gets a Copy button. */
function Output({ text, complete }: { text: string; complete: boolean }) {
  const pre = (
    <pre
      className={
        'max-h-80 overflow-auto whitespace-pre-wrap break-words ' +
        'terminal rounded p-2 pr-16 font-mono text-[11px] leading-4'
      }
      data-testid="tool-output"
    >
      {text ? <Highlighted text={text} /> : '(no output)'}
    </pre>
  );
  if (!complete || !text) return pre;
  return (
    <div className="relative">
      {pre}
      <div className="absolute right-1.5 top-1.5">
        <CopyButton text={text} label="tool output" />
      </div>
    </div>
  );
}

function ResultBadge({ result, failed }: { result: ToolResultOfStep | undefined; failed: boolean }) {
  if (!result) return <span className="text-slate-400">no result</span>;
  return (
    <span
      className={
        'rounded px-1.5 py-0.5 tabular-nums ' +
        (failed ? 'bg-rose-100 text-rose-800' : 'bg-emerald-100 text-emerald-800')
      }
      data-testid="exit-code"
    >
      {resultLabel(result)} · {ms(result.durationMs)}
    </span>
  );
}

function AgentReportedBadge() {
  return (
    <span
      className="rounded bg-amber-50 px-1.5 py-0.5 text-amber-800"
      data-testid="agent-reported"
      title={
        'A third-party agent runs its own tools: this output is what it sent back with its ' +
        'next request, not something GitBench saw run. The repository below is read by GitBench.'
      }
    >
      reported by the agent
    </span>
  );
}

/** The call's full arguments as the model sent them, folded. */
function CallArguments({ step, call, fetchPart }: { step: ViewStep; call: ToolCallOfStep; fetchPart: FetchPart }) {
  return (
    <details>
      <summary className="cursor-pointer text-xs text-slate-500">Arguments</summary>
      <ShowAll
        initial={call.rawArguments}
        clippedBytes={step.clipped.arguments[call.id]}
        fetchPart={() => fetchPart(step.index, { kind: 'arguments', callId: call.id })}
        what="arguments"
        render={(t) => (
          <pre
            className={
              'max-h-60 overflow-auto whitespace-pre-wrap break-all ' + 'rounded bg-slate-50 p-2 font-mono text-[11px]'
            }
          >
            <Highlighted text={t} />
          </pre>
        )}
      />
    </details>
  );
}

function CallOutput({
  step,
  call,
  result,
  fetchPart,
}: {
  step: ViewStep;
  call: ToolCallOfStep;
  result: ToolResultOfStep;
  fetchPart: FetchPart;
}) {
  return (
    <>
      <ShowAll
        initial={result.output}
        clippedBytes={step.clipped.output[call.id]}
        fetchPart={() => fetchPart(step.index, { kind: 'output', callId: call.id })}
        what="output"
        render={(t, complete) => <Output text={t} complete={complete} />}
      />
      {result.truncatedBytes ? (
        <p className="text-[11px] text-slate-500">
          The model saw {(result.outputBytes - result.truncatedBytes).toLocaleString('en-US')} of{' '}
          {result.outputBytes.toLocaleString('en-US')} bytes (head and tail).
        </p>
      ) : null}
    </>
  );
}

/** One tool call of a step: its name and main argument, how it ended, its arguments and its output. */
export function ToolCall({
  step,
  call,
  failed,
  fetchPart,
}: {
  step: ViewStep;
  call: ToolCallOfStep;
  failed: boolean;
  fetchPart: FetchPart;
}) {
  const result = step.results.find((r) => r.callId === call.id);
  // A submitted answer or a script of several lines keeps its lines; one line stays beside the tool's name.
  const main = mainArgument(call.arguments);
  const multiline = main !== null && main.includes('\n');
  return (
    <div className="space-y-1" data-testid="tool-call" data-failed={failed ? 'true' : 'false'}>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="rounded bg-slate-800 px-1.5 py-0.5 font-mono text-white">{call.name}</span>
        {multiline ? null : (
          <code className="break-all text-slate-800">
            <Highlighted text={callLabel(call)} />
          </code>
        )}
        {main !== null && !step.clipped.arguments[call.id] ? <CopyButton text={main} label="command" /> : null}
        <ResultBadge result={result} failed={failed} />
        {result?.agentReported ? <AgentReportedBadge /> : null}
      </div>
      {multiline ? (
        <pre
          className={
            'max-h-80 overflow-auto whitespace-pre-wrap break-words ' +
            'rounded bg-slate-50 p-2 font-mono text-xs text-slate-800'
          }
          data-testid="call-argument"
        >
          <Highlighted text={main} />
        </pre>
      ) : null}
      <CallArguments step={step} call={call} fetchPart={fetchPart} />
      {call.parseError ? (
        <p className="rounded bg-rose-50 p-2 text-xs text-rose-900">Arguments refused: {call.parseError}</p>
      ) : null}
      {result?.sandboxError !== undefined ? (
        <p className="rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="sandbox-error">
          The sandbox failed while this call ran (infrastructure, not the command&apos;s output): {result.sandboxError}
        </p>
      ) : null}
      {result ? <CallOutput step={step} call={call} result={result} fetchPart={fetchPart} /> : null}
    </div>
  );
}
