import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';
import { lineDiff } from './line-diff';

export function Pre({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <pre aria-label={label} className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800">
      {children}
    </pre>
  );
}

export function Diff({ expected, actual }: { expected: string; actual: string }) {
  const lines = lineDiff(expected, actual);
  return (
    <div className="overflow-auto rounded border border-slate-200 bg-white font-mono text-xs" data-testid="output-diff">
      <div className="flex gap-4 border-b border-slate-200 bg-slate-50 px-3 py-1 text-[11px] text-slate-600">
        <span>
          <span className="text-rose-700">− expected only</span>
        </span>
        <span>
          <span className="text-emerald-700">+ model output only</span>
        </span>
      </div>
      {lines.map((l, i) => (
        <div
          key={i}
          className={`whitespace-pre-wrap px-3 ${l.kind === 'add' ? 'bg-emerald-50 text-emerald-900' : l.kind === 'del' ? 'bg-rose-50 text-rose-900' : 'text-slate-700'}`}
        >
          <span aria-hidden className="mr-2 select-none text-slate-400">
            {l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}
          </span>
          {l.text || ' '}
        </div>
      ))}
    </div>
  );
}

/** Key/value list for hashes and metadata; long values wrap, monospace for ids. */
export function Facts({ items, testId }: { items: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" data-testid={testId}>
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{k}</dt>
          <dd className="break-all font-mono text-xs leading-5 text-slate-800">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  if (value === null || value === undefined) return <p className="text-sm text-slate-500">Not recorded.</p>;
  if (typeof value === 'object' && Object.keys(value as object).length === 0) return <p className="text-sm text-slate-500">Empty.</p>;
  return <Pre label={label}>{JSON.stringify(value, null, 2)}</Pre>;
}

/** A block of text (a prompt, a command list, a scoring rule) with a button that copies it whole. */
export function CopyBlock({ text, label }: { text: string; label: string }) {
  return (
    <div className="space-y-1">
      <div className="flex justify-end">
        <CopyButton text={text} label={label} />
      </div>
      <Pre label={label}>{text}</Pre>
    </div>
  );
}
