'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A confirmation asked in place, before an action that costs money or stops work: what will happen, in
 * numbers, and two buttons. Focus moves to the confirming button so Enter confirms and Escape backs out.
 */
export function ConfirmPanel({
  title,
  children,
  confirmLabel,
  backLabel,
  onConfirm,
  onBack,
  busy = false,
  tone = 'indigo',
  testId,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  backLabel: string;
  onConfirm: () => void;
  onBack: () => void;
  busy?: boolean;
  tone?: 'indigo' | 'rose';
  testId?: string;
}) {
  const id = useId();
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  const colours = tone === 'rose' ? 'border-rose-300 bg-rose-50' : 'border-indigo-300 bg-indigo-50';
  const button = tone === 'rose' ? 'bg-rose-600 hover:bg-rose-700' : 'bg-indigo-600 hover:bg-indigo-700';
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      className={`space-y-2 rounded-lg border p-4 text-sm ${colours}`}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onBack();
      }}
    >
      <p id={`${id}-title`} className="font-semibold text-slate-900">
        {title}
      </p>
      <div id={`${id}-body`} className="space-y-1 text-slate-700">
        {children}
      </div>
      <div className="flex flex-wrap gap-2 pt-1">
        <button
          ref={confirm}
          type="button"
          onClick={onConfirm}
          disabled={busy}
          className={
            `rounded px-3 py-1.5 font-medium text-white focus:outline-2 ` +
            `focus:outline-offset-2 focus:outline-indigo-500 disabled:opacity-50 ${button}`
          }
        >
          {confirmLabel}
        </button>
        <button
          type="button"
          onClick={onBack}
          disabled={busy}
          className={
            'rounded border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 ' +
            'hover:bg-slate-50 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-500'
          }
        >
          {backLabel}
        </button>
      </div>
    </div>
  );
}
