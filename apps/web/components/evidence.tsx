import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';
import { DASH } from './format';
import { lineDiff } from './line-diff';

/**
 * A block of preformatted text. `copy` names what it holds for a Copy button in its corner, which copies
 * the whole text (the block scrolls; the button stays put).
 */
export function Pre({ children, label, copy }: { children: ReactNode; label?: string; copy?: string }) {
  const copies = Boolean(copy) && typeof children === 'string' && children !== '';
  const pre = (
    <pre
      aria-label={label}
      className={
        `max-h-96 overflow-auto whitespace-pre-wrap break-words rounded border border-slate-200 ` +
        `bg-slate-50 p-3 font-mono text-xs text-slate-800 ${copies ? 'pr-16' : ''}`
      }
    >
      {children}
    </pre>
  );
  if (!copies) return pre;
  return (
    <div className="relative">
      {pre}
      <div className="absolute right-1.5 top-1.5">
        <CopyButton text={children as string} label={copy!} />
      </div>
    </div>
  );
}

/** A value (an id, a hash) with a button that copies it; an unknown value (—) has none. */
export function Copyable({ text, label }: { text: string | null | undefined; label: string }) {
  if (!text || text === DASH) return <>{DASH}</>;
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-1.5">
      <span className="break-all">{text}</span>
      <CopyButton text={text} label={label} />
    </span>
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
          className={
            'whitespace-pre-wrap px-3 ' +
            (l.kind === 'add'
              ? 'bg-emerald-50 text-emerald-900'
              : l.kind === 'del'
                ? 'bg-rose-50 text-rose-900'
                : 'text-slate-700')
          }
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

/** `copy`: a Copy button for the JSON, named by `label`. */
export function JsonBlock({ value, label, copy = false }: { value: unknown; label?: string; copy?: boolean }) {
  if (value === null || value === undefined) return <p className="text-sm text-slate-500">Not recorded.</p>;
  if (typeof value === 'object' && Object.keys(value as object).length === 0)
    return <p className="text-sm text-slate-500">Empty.</p>;
  return (
    <Pre label={label} copy={copy ? (label ?? 'JSON') : undefined}>
      {JSON.stringify(value, null, 2)}
    </Pre>
  );
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
