import type { GgbCommit, GgbOutcome } from '@gitbench/core';

/** GitGoodBench's evidence: the MCR diff against the merge commit, or both IR/ICC histories and both judge verdicts. */
export function GgbEvidenceView({ outcome }: { outcome: GgbOutcome }) {
  const solved =
    outcome.solved === null ? 'unscored (the judge could not decide)' : outcome.solved ? 'solved' : 'not solved';
  return (
    <div className="space-y-4" data-testid={`ggb-evidence-${outcome.scenario}`}>
      <p className="text-sm text-slate-700">
        <strong>{outcome.scenario.toUpperCase()}</strong> ·{' '}
        {outcome.success ? 'ended without a system error' : 'ended with a system error'} · {solved}
        {outcome.detail ? ` · ${outcome.detail}` : ''}
      </p>
      {outcome.mcr ? <MergeDiff mcr={outcome.mcr} /> : null}
      {outcome.histories ? <Histories histories={outcome.histories} /> : null}
      {outcome.judge ? <JudgeVerdicts judge={outcome.judge} /> : null}
    </div>
  );
}

function MergeDiff({ mcr }: { mcr: NonNullable<GgbOutcome['mcr']> }) {
  const lines = mcr.diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return (
    <div className="space-y-2" data-testid="mcr-diff">
      <h3 className="text-sm font-medium">
        The agent&apos;s tree against the merge commit{' '}
        <code className="font-mono text-xs">{mcr.mergeCommit.slice(0, 12)}</code>
      </h3>
      <p className="text-xs text-slate-600">
        <code>git diff {mcr.mergeCommit.slice(0, 12)} HEAD</code>: lines marked − are in the real merge only, lines
        marked + in the agent&apos;s tree only. Solved iff this is empty and nothing is left unmerged.
        {mcr.unmerged.length > 0 ? ` Left unmerged: ${mcr.unmerged.join(', ')}.` : ' Nothing left unmerged.'}
      </p>
      {lines.length === 0 ? (
        <p className="rounded border border-emerald-200 bg-emerald-50 p-2 text-sm text-emerald-900">
          No difference: the tree equals the merge commit&apos;s.
        </p>
      ) : (
        <div className="max-h-[40rem] overflow-auto rounded border border-slate-200 bg-white font-mono text-xs">
          {lines.map((l, i) => {
            const header = /^(diff --git|index |--- |\+\+\+ )/.test(l);
            const kind = header
              ? 'head'
              : l.startsWith('@@')
                ? 'hunk'
                : l.startsWith('+')
                  ? 'add'
                  : l.startsWith('-')
                    ? 'del'
                    : 'same';
            const cls = {
              head: 'bg-slate-100 text-slate-600',
              hunk: 'bg-indigo-50 text-indigo-800',
              add: 'bg-emerald-50 text-emerald-900',
              del: 'bg-rose-50 text-rose-900',
              same: 'text-slate-700',
            }[kind];
            return (
              <div key={i} className={`whitespace-pre px-3 ${cls}`}>
                {l || ' '}
              </div>
            );
          })}
          {mcr.diffTruncated ? (
            <div className="px-3 py-1 text-amber-800">… diff cut here (too long to keep whole)</div>
          ) : null}
        </div>
      )}
    </div>
  );
}

function History({ title, commits, testId }: { title: string; commits: GgbCommit[]; testId: string }) {
  return (
    <div className="min-w-0 space-y-2" data-testid={testId}>
      <h4 className="text-sm font-medium">
        {title}{' '}
        <span className="font-normal text-slate-500">
          ({commits.length} commit{commits.length === 1 ? '' : 's'}, oldest first)
        </span>
      </h4>
      {commits.length === 0 ? <p className="text-sm text-slate-500">No commits.</p> : null}
      <ol className="space-y-2">
        {commits.map((c, i) => (
          <li key={`${c.sha}-${i}`} className="rounded border border-slate-200 bg-white p-2 text-sm">
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="text-xs text-slate-400">{i + 1}.</span>
              <code className="font-mono text-xs text-slate-500">{c.sha.slice(0, 7)}</code>
              <span className="font-medium">{c.subject}</span>
            </div>
            {c.message.trim() !== c.subject.trim() ? (
              <pre className="mt-1 whitespace-pre-wrap text-xs text-slate-600">{c.message.trim()}</pre>
            ) : null}
            <div className="mt-1 text-xs text-slate-500">{c.files.join(', ') || 'no files'}</div>
            {c.diff ? (
              <details className="mt-1">
                <summary className="cursor-pointer text-xs text-slate-600">Changes</summary>
                <pre className="mt-1 max-h-64 overflow-auto whitespace-pre rounded bg-slate-50 p-2 font-mono text-xs">
                  {c.diff}
                </pre>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Histories({ histories }: { histories: NonNullable<GgbOutcome['histories']> }) {
  return (
    <div className="space-y-2" data-testid="ggb-histories">
      <h3 className="text-sm font-medium">
        Both histories
        {histories.targetFile ? (
          <>
            {' '}
            (restricted to <code className="font-mono text-xs">{histories.targetFile}</code>)
          </>
        ) : null}
      </h3>
      {histories.rebaseInProgress ? (
        <p className="rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-900">
          A rebase was still in progress when the agent stopped: not solved.
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <History title="Original history" commits={histories.original} testId="history-original" />
        <History title="The agent's history" commits={histories.agent} testId="history-agent" />
      </div>
    </div>
  );
}

function JudgeVerdicts({ judge }: { judge: NonNullable<GgbOutcome['judge']> }) {
  return (
    <div className="space-y-2" data-testid="ggb-judge">
      <h3 className="text-sm font-medium">The pairwise judge, asked twice with the histories swapped</h3>
      {judge.status === 'unscored' ? (
        <p className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">
          Unscored: {judge.reason ?? 'the judge gave no verdict'}. The attempt is left out of the solve rate, not scored
          another way.
        </p>
      ) : null}
      <ol className="grid gap-3 md:grid-cols-2">
        {judge.verdicts.map((v, i) => (
          <li
            key={i}
            className={
              `rounded border p-3 ` +
              `text-sm ${v.agentWon ? 'border-emerald-200 bg-emerald-50' : 'border-rose-200 bg-rose-50'}`
            }
          >
            <div className="flex flex-wrap items-center gap-2 font-medium">
              <span>Verdict {i + 1}</span>
              <span className="text-xs font-normal text-slate-600">agent&apos;s history shown as {v.agentAs}</span>
            </div>
            <div className="mt-1">
              judge chose <code>{v.result}</code>:{' '}
              <span className={v.agentWon ? 'text-emerald-800' : 'text-rose-800'}>
                <span aria-hidden>{v.agentWon ? '✓ ' : '✗ '}</span>
                {v.agentWon
                  ? "the agent's history won"
                  : v.result === 'TIE'
                    ? 'a tie (not a win)'
                    : 'the original history won'}
              </span>
            </div>
            <p className="mt-1 text-slate-700">{v.reason}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
