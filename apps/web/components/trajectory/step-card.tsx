'use client';

import { stepNumber, type StepHead, type StepPart, type ViewStep } from '@/lib/trajectory/view-model';
import { Highlighted } from './highlighted';
import { RepoChange } from './repo-change';
import { ShowAll } from './show-all';
import { count, ms, usd } from './step-format';
import { ToolCall } from './tool-call';

type FetchPart = (index: number, part: StepPart) => Promise<string>;

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

/** The calls of a step that failed: an error, a timeout, a non-zero exit, or arguments that did not parse. */
function failedCallsOf(step: ViewStep): Set<string> {
  const failed = new Set(
    step.results
      .filter((r) => r.isError || r.timedOut || (r.exitCode !== null && r.exitCode !== 0))
      .map((r) => r.callId),
  );
  for (const c of step.toolCalls) if (c.parseError) failed.add(c.id);
  return failed;
}

const WARNING = 'rounded bg-amber-100 px-1.5 text-amber-800';

/** What marks a step out: an unusual finish, retries, a format strike, a failed call, the limit that stopped it. */
function StepMarks({ step, failed, limitStep }: { step: ViewStep; failed: boolean; limitStep: string | null }) {
  return (
    <>
      {step.finishReason && step.finishReason !== 'tool_calls' && step.finishReason !== 'stop' ? (
        <span className={WARNING}>finish: {step.finishReason}</span>
      ) : null}
      {step.retries ? (
        <span className={WARNING}>
          {step.retries} retr{step.retries === 1 ? 'y' : 'ies'}
        </span>
      ) : null}
      {step.formatStrike ? <span className={WARNING}>format strike</span> : null}
      {failed ? <span className="rounded bg-rose-100 px-1.5 text-rose-800">failed</span> : null}
      {limitStep ? (
        <span className="rounded bg-rose-600 px-1.5 font-semibold text-white" data-testid="limit-marker">
          stopped here: {limitStep}
        </span>
      ) : null}
    </>
  );
}

function StepHeader({
  step,
  offsetMs,
  scaleMs,
  failed,
  limitStep,
}: {
  step: ViewStep;
  offsetMs: number;
  scaleMs: number;
  failed: boolean;
  limitStep: string | null;
}) {
  return (
    <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
      <span className="text-sm font-semibold text-slate-900">Step {stepNumber(step.index)}</span>
      <span className="tabular-nums">+{ms(Math.max(0, offsetMs))}</span>
      <TimingBar modelMs={step.modelMs} toolMs={step.toolMs} scaleMs={scaleMs} />
      <span className="tabular-nums" data-testid="step-timing">
        <span className="text-indigo-700">model {ms(step.modelMs)}</span> ·{' '}
        <span className="text-teal-700">tools {ms(step.toolMs)}</span>
      </span>
      <span className="tabular-nums" data-testid="step-tokens">
        tokens in {count(step.usage.inputTokens)} / out {count(step.usage.outputTokens)}
      </span>
      <span className="tabular-nums">
        {usd(step.usage.costUsd)}
        {step.usage.costEstimated ? ' (est.)' : ''}
      </span>
      <StepMarks step={step} failed={failed} limitStep={limitStep} />
    </header>
  );
}

/** The model's turn in words: its reasoning (folded), its message, and what the runtime noted. */
function StepMessage({ step, fetchPart }: { step: ViewStep; fetchPart: FetchPart }) {
  return (
    <>
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
    </>
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
  fetchPart: FetchPart;
}) {
  const failedCalls = failedCallsOf(step);
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
      <StepHeader
        step={step}
        offsetMs={Date.parse(step.startedAt) - startMs}
        scaleMs={scaleMs}
        failed={failedCalls.size > 0}
        limitStep={limitStep}
      />
      <StepMessage step={step} fetchPart={fetchPart} />
      {step.toolCalls.map((call) => (
        <ToolCall key={call.id} step={step} call={call} failed={failedCalls.has(call.id)} fetchPart={fetchPart} />
      ))}
      <RepoChange
        repo={step.repo}
        prev={prev?.repo ?? null}
        clippedDiff={step.clipped.diff}
        fetchPart={() => fetchPart(step.index, { kind: 'diff' })}
      />
    </article>
  );
}
