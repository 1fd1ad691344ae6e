import {
  GIST_PROBE,
  gistLines,
  OUTPUTS_PROBE,
  parseGistEvidence,
  readRepoTaskOutputs,
  type GgbOutcome,
  type GistLine,
  type GistOutcome,
  type GitbenchEvidence,
  type RepoTaskOutcome,
  type RepoTaskOutputFile,
} from '@gitbench/core';
import { Pre } from './evidence';
import { DASH, int, pct } from './format';
import { GgbEvidenceView } from './ggb-evidence';

/**
 * The attempt page's view of a task family's evidence: what a repository task's agent wrote and what
 * its grader said, a gist line by line, GitGoodBench's diff, histories and judge verdicts. Everything
 * shown is read from the try's evidence record; nothing is recomputed from the repository.
 */
export function FamilyEvidence({ evidence }: { evidence: GitbenchEvidence }) {
  const family = evidence.scoring?.family;
  if (!family) return null;
  const probes = evidence.sandbox && evidence.sandbox.kind !== 'none' ? evidence.sandbox.evidence.probes : {};
  switch (family.family) {
    case 'repo_task':
      return <RepoTaskEvidence outcome={family} outputs={readRepoTaskOutputs(probes[OUTPUTS_PROBE])} />;
    case 'gist':
      return <GistEvidenceView outcome={family} stdout={probes[GIST_PROBE]?.stdout} />;
    case 'ggb':
      return <GgbEvidenceView outcome={family as GgbOutcome} />;
  }
}

function Flag({ ok, label }: { ok: boolean; label: string }) {
  return (
    <span
      className={
        `inline-flex items-center gap-1 rounded px-2 py-0.5 text-sm ` +
        `font-medium ${ok ? 'bg-emerald-100 text-emerald-900' : 'bg-rose-100 text-rose-900'}`
      }
    >
      <span aria-hidden>{ok ? '✓' : '✗'}</span>
      {label} {ok ? 'true' : 'false'}
    </span>
  );
}

const KIND_TEXT: Record<RepoTaskOutcome['kind'], string> = {
  graded: 'the grader ran and answered',
  no_output: 'no output found: the grader was not run',
  empty_output: 'an output is empty: the grader was not run',
  grader_crash: 'the grader crashed or gave no verdict',
  grader_timeout: 'the grader did not finish within its time limit',
  not_run: 'the grader did not run',
};

function RepoTaskEvidence({
  outcome,
  outputs,
}: {
  outcome: RepoTaskOutcome;
  outputs: ReturnType<typeof readRepoTaskOutputs>;
}) {
  return (
    <div className="space-y-4" data-testid="repo-task-evidence">
      <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-3" data-testid="grader-verdict">
        <h3 className="text-sm font-medium">The grader&apos;s verdict</h3>
        <div className="flex flex-wrap items-center gap-2">
          <Flag ok={outcome.process} label="Process" />
          <Flag ok={outcome.result} label="Result" />
          <span className="text-sm text-slate-700">
            quality {outcome.quality} · market value ${outcome.marketValueUsd} · {KIND_TEXT[outcome.kind]}
          </span>
        </div>
        <div>
          <div className="text-xs text-slate-500">comments</div>
          <Pre label="grader comments">{outcome.comments || '(none)'}</Pre>
        </div>
      </div>
      <div className="space-y-2" data-testid="agent-outputs">
        <h3 className="text-sm font-medium">What the agent wrote at the task&apos;s outputs</h3>
        {!outputs.ok ? (
          <p className="text-sm text-slate-600">{outputs.problem}</p>
        ) : outputs.files.length === 0 ? (
          <p className="text-sm text-slate-600">No file at the declared outputs.</p>
        ) : (
          <ul className="space-y-3">
            {outputs.files.map((f) => (
              <OutputFile key={f.path} file={f} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function OutputFile({ file }: { file: RepoTaskOutputFile }) {
  return (
    <li className="space-y-1 rounded border border-slate-200 bg-white p-2">
      <div className="flex flex-wrap items-baseline gap-3 text-sm">
        <code className="font-medium">{file.path}</code>
        <span className="tabular-nums text-slate-600">
          {file.bytes === undefined ? DASH : `${int(file.bytes)} bytes`}
        </span>
        {file.sha256 ? (
          <span className="font-mono text-xs text-slate-500">sha256 {file.sha256.slice(0, 16)}…</span>
        ) : null}
        {file.error ? <span className="text-rose-700">{file.error}</span> : null}
      </div>
      {file.base64 && file.mime ? (
        // A data URL in an <img> draws the picture and runs nothing, SVG included.
        <img
          src={`data:${file.mime};base64,${file.base64}`}
          alt={`Output ${file.path}`}
          className={
            'max-h-64 rounded border border-slate-200 ' +
            'bg-[repeating-conic-gradient(#e2e8f0_0_25%,white_0_50%)] bg-[length:16px_16px]'
          }
          style={{ imageRendering: 'pixelated', minWidth: 64 }}
        />
      ) : file.text !== undefined ? (
        <Pre label={`content of ${file.path}`}>{file.text}</Pre>
      ) : file.error ? null : (
        <p className="text-xs text-slate-500">No preview (binary, or larger than the listing keeps).</p>
      )}
    </li>
  );
}

/** How each mark looks and reads; the text marker carries the meaning for anyone who cannot tell the colours apart. */
const EXECUTION_MARKS: Record<
  NonNullable<GistLine['execution']>,
  { marker: string; label: string; row: string; chip: string }
> = {
  executed: { marker: 'RUN', label: 'executed', row: 'bg-emerald-50', chip: 'bg-emerald-200 text-emerald-950' },
  not_executed: { marker: 'NOT RUN', label: 'not executed', row: 'bg-amber-50', chip: 'bg-amber-200 text-amber-950' },
  not_counted: {
    marker: 'n/c',
    label: 'not counted (docstring, placeholder, except block)',
    row: '',
    chip: 'bg-slate-200 text-slate-800',
  },
  replaced: {
    marker: 'REPL',
    label: "inside a test replaced by the original's",
    row: 'bg-sky-50',
    chip: 'bg-sky-200 text-sky-950',
  },
  not_run: { marker: 'NO RUN', label: 'the gist never ran', row: '', chip: 'bg-slate-200 text-slate-800' },
};
const EXISTENCE_MARKS: Record<NonNullable<GistLine['existence']>, { marker: string; label: string; chip: string }> = {
  found: { marker: '✓ orig', label: 'found in the original', chip: 'text-emerald-800' },
  partial: { marker: '½ orig', label: 'partly found in the original', chip: 'text-amber-800' },
  missing: {
    marker: '✗ not found',
    label: 'not found in the original',
    chip: 'bg-rose-100 text-rose-900 font-semibold',
  },
};

function GistLegend() {
  return (
    <div
      className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700"
      data-testid="gist-legend"
      aria-label="Legend"
    >
      {Object.values(EXECUTION_MARKS).map((m) => (
        <span key={m.marker} className="flex items-center gap-1">
          <span className={`rounded px-1 font-mono ${m.chip}`}>{m.marker}</span> {m.label}
        </span>
      ))}
      {Object.values(EXISTENCE_MARKS).map((m) => (
        <span key={m.marker} className="flex items-center gap-1">
          <span className={`rounded px-1 font-mono ${m.chip}`}>{m.marker}</span> {m.label}
        </span>
      ))}
    </div>
  );
}

function GistEvidenceView({ outcome, stdout }: { outcome: GistOutcome; stdout: string | undefined }) {
  const read = stdout === undefined ? null : parseGistEvidence(stdout);
  const lines = read?.ok ? gistLines(read.evidence) : [];
  return (
    <div className="space-y-3" data-testid="gist-evidence">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Flag ok={outcome.fidelity} label="Execution fidelity" />
        <span className="text-slate-700">
          line execution {pct(outcome.lineExecutionRate)}
          {outcome.executableLines !== null
            ? ` (${outcome.executedLines}/${outcome.executableLines} executable lines ran)`
            : ' (the gist did not run)'}{' '}
          · line existence {pct(outcome.lineExistenceRate)}
          {outcome.countedLines !== null
            ? ` (${outcome.foundLines}/${outcome.countedLines} lines found in the original)`
            : ''}
        </span>
      </div>
      <p className="text-sm text-slate-700">
        {outcome.failure ? <strong>{outcome.failure.replace(/_/g, ' ')}: </strong> : null}
        {outcome.detail}
      </p>
      {read === null ? (
        <p className="text-sm text-slate-600">The gist evaluator left no record in this try.</p>
      ) : !read.ok ? (
        <p className="text-sm text-rose-800">{read.problem}</p>
      ) : lines.length === 0 ? (
        <p className="text-sm text-slate-600">
          There is no gist file to show{read.evidence.gist?.path ? ` (${read.evidence.gist.path})` : ''}.
        </p>
      ) : (
        <>
          <GistLegend />
          <div className="overflow-auto rounded border border-slate-200 bg-white">
            <table
              className="w-full border-collapse font-mono text-xs"
              data-testid="gist-lines"
              aria-label={`The gist ${read.evidence.gist?.path ?? ''}, line by line`}
            >
              <thead className="bg-slate-50 text-left text-[11px] text-slate-500">
                <tr>
                  <th className="w-px px-2 py-1 text-right font-normal">line</th>
                  <th className="w-px whitespace-nowrap px-2 py-1 font-normal">ran</th>
                  <th className="w-px whitespace-nowrap px-2 py-1 font-normal">in original</th>
                  <th className="px-2 py-1 font-normal">code</th>
                </tr>
              </thead>
              <tbody>
                {lines.map((l) => {
                  const exec = l.execution ? EXECUTION_MARKS[l.execution] : null;
                  const exist = l.existence ? EXISTENCE_MARKS[l.existence] : null;
                  return (
                    <tr
                      key={l.number}
                      className={exec?.row ?? ''}
                      data-execution={l.execution ?? 'none'}
                      data-existence={l.existence ?? 'none'}
                      title={l.block ? `block ${l.block}` : undefined}
                    >
                      <td className="select-none px-2 text-right text-slate-400">{l.number}</td>
                      <td className="whitespace-nowrap px-2">
                        {exec ? <span className={`rounded px-1 ${exec.chip}`}>{exec.marker}</span> : null}
                      </td>
                      <td className="whitespace-nowrap px-2">
                        {exist ? <span className={`rounded px-1 ${exist.chip}`}>{exist.marker}</span> : null}
                      </td>
                      <td className="whitespace-pre px-2 text-slate-900">{l.text || ' '}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
