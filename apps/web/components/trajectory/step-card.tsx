'use client';

import {
  callLabel,
  mainArgument,
  stepNumber,
  type StepHead,
  type StepPart,
  type ViewStep,
} from '@/lib/trajectory/view-model';
import { Highlighted } from './highlighted';
import { RepoChange } from './repo-change';
import { ShowAll } from './show-all';
import { CopyButton } from '../copy-button';

const n = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-US'));
const ms = (v: number) => (v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);
const usd = (v: number | null) => (v === null ? '—' : v < 0.01 ? `$${v.toPrecision(2)}` : `$${v.toFixed(3)}`);

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

/** Model time against tool time, as a bar scaled to the slowest step of the trajectory. */
function TimingBar({ modelMs, toolMs, scaleMs }: { modelMs: number; toolMs: number; scaleMs: number }) {
  const w = (v: number) => `${Math.max(v > 0 ? 2 : 0, (v / Math.max(1, scaleMs)) * 100)}%`;
  return (
    <span
      className="inline-flex h-2 w-32 overflow-hidden rounded bg-slate-100"
      title={`model ${ms(modelMs)}, tools ${ms(toolMs)}`}
      aria-hidden
    >
      <span className="bg-indigo-400" style={{ width: w(modelMs) }} />
      <span className="bg-teal-500" style={{ width: w(toolMs) }} />
    </span>
  );
}

export function StepCard({
  step,
  prev,
  startMs,
  scaleMs,
  highlight,
  limitStep,
  fetchPart,
}: {
  step: ViewStep;
  /** The head of the step before (its repository is what this step changed from). */
  prev: StepHead | null;
  /** When the trajectory started, for offsets. */
  startMs: number;
  scaleMs: number;
  highlight: boolean;
  /** This step is where a limit stopped the loop (its description), else null. */
  limitStep: string | null;
  fetchPart: (index: number, part: StepPart) => Promise<string>;
}) {
  const failedCalls = new Set(
    step.results
      .filter((r) => r.isError || r.timedOut || (r.exitCode !== null && r.exitCode !== 0))
      .map((r) => r.callId),
  );
  for (const c of step.toolCalls) if (c.parseError) failedCalls.add(c.id);
  const offset = Date.parse(step.startedAt) - startMs;
  return (
    <article
      id={`step-${step.index}`}
      tabIndex={-1}
      data-testid="step"
      data-step={step.index}
      className={
        'scroll-mt-20 space-y-2 rounded-lg border focus:outline-none bg-white p-3 ' +
        (highlight ? 'border-sky-500 ring-2 ring-sky-200' : failedCalls.size ? 'border-rose-200' : 'border-slate-200')
      }
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
        <span className="text-sm font-semibold text-slate-900">Step {stepNumber(step.index)}</span>
        <span className="tabular-nums">+{ms(Math.max(0, offset))}</span>
        <TimingBar modelMs={step.modelMs} toolMs={step.toolMs} scaleMs={scaleMs} />
        <span className="tabular-nums" data-testid="step-timing">
          <span className="text-indigo-700">model {ms(step.modelMs)}</span> ·{' '}
          <span className="text-teal-700">tools {ms(step.toolMs)}</span>
        </span>
        <span className="tabular-nums" data-testid="step-tokens">
          tokens in {n(step.usage.inputTokens)} / out {n(step.usage.outputTokens)}
        </span>
        <span className="tabular-nums">
          {usd(step.usage.costUsd)}
          {step.usage.costEstimated ? ' (est.)' : ''}
        </span>
        {step.finishReason && step.finishReason !== 'tool_calls' && step.finishReason !== 'stop' ? (
          <span className="rounded bg-amber-100 px-1.5 text-amber-800">finish: {step.finishReason}</span>
        ) : null}
        {step.retries ? (
          <span className="rounded bg-amber-100 px-1.5 text-amber-800">
            {step.retries} retr{step.retries === 1 ? 'y' : 'ies'}
          </span>
        ) : null}
        {step.formatStrike ? <span className="rounded bg-amber-100 px-1.5 text-amber-800">format strike</span> : null}
        {failedCalls.size ? <span className="rounded bg-rose-100 px-1.5 text-rose-800">failed</span> : null}
        {limitStep ? (
          <span className="rounded bg-rose-600 px-1.5 font-semibold text-white" data-testid="limit-marker">
            stopped here: {limitStep}
          </span>
        ) : null}
      </header>

      {step.message.reasoning ? (
        <details>
          <summary className="cursor-pointer text-xs text-slate-500">Reasoning</summary>
          <ShowAll
            initial={step.message.reasoning}
            clippedBytes={step.clipped.reasoning}
            fetchPart={() => fetchPart(step.index, { kind: 'reasoning' })}
            what="reasoning"
            render={(t) => (
              <p className="whitespace-pre-wrap text-xs italic text-slate-600">
                <Highlighted text={t} />
              </p>
            )}
          />
        </details>
      ) : null}
      {step.message.content ? (
        <ShowAll
          initial={step.message.content}
          clippedBytes={step.clipped.content}
          fetchPart={() => fetchPart(step.index, { kind: 'content' })}
          what="message"
          render={(t) => (
            <p className="whitespace-pre-wrap text-sm text-slate-800">
              <Highlighted text={t} />
            </p>
          )}
        />
      ) : null}
      {step.runtimeNote ? (
        <p className="rounded bg-amber-50 p-2 text-xs text-amber-900">Runtime: {step.runtimeNote}</p>
      ) : null}

      {step.toolCalls.map((call) => {
        const result = step.results.find((r) => r.callId === call.id);
        const failed = failedCalls.has(call.id);
        // A submitted answer or a script of several lines keeps its lines; one line stays beside the tool's name.
        const main = mainArgument(call.arguments);
        const multiline = main !== null && main.includes('\n');
        return (
          <div key={call.id} className="space-y-1" data-testid="tool-call" data-failed={failed ? 'true' : 'false'}>
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className="rounded bg-slate-800 px-1.5 py-0.5 font-mono text-white">{call.name}</span>
              {multiline ? null : (
                <code className="break-all text-slate-800">
                  <Highlighted text={callLabel(call)} />
                </code>
              )}
              {main !== null && !step.clipped.arguments[call.id] ? <CopyButton text={main} label="command" /> : null}
              {result ? (
                <span
                  className={
                    'rounded px-1.5 py-0.5 tabular-nums ' +
                    (failed ? 'bg-rose-100 text-rose-800' : 'bg-emerald-100 text-emerald-800')
                  }
                  data-testid="exit-code"
                >
                  {result.timedOut
                    ? 'timed out'
                    : result.exitCode !== null
                      ? `exit ${result.exitCode}`
                      : result.isError
                        ? 'error'
                        : 'ok'}{' '}
                  · {ms(result.durationMs)}
                </span>
              ) : (
                <span className="text-slate-400">no result</span>
              )}
              {result?.agentReported ? (
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
              ) : null}
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
                      'max-h-60 overflow-auto whitespace-pre-wrap break-all ' +
                      'rounded bg-slate-50 p-2 font-mono text-[11px]'
                    }
                  >
                    <Highlighted text={t} />
                  </pre>
                )}
              />
            </details>
            {call.parseError ? (
              <p className="rounded bg-rose-50 p-2 text-xs text-rose-900">Arguments refused: {call.parseError}</p>
            ) : null}
            {result ? (
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
            ) : null}
          </div>
        );
      })}

      <RepoChange
        repo={step.repo}
        prev={prev?.repo ?? null}
        clippedDiff={step.clipped.diff}
        fetchPart={() => fetchPart(step.index, { kind: 'diff' })}
      />
    </article>
  );
}
