import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center" role="status">
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="mx-auto mt-2 max-w-xl text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}

export function Section({
  title,
  id,
  children,
  aside,
}: {
  title: string;
  id?: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

export function NotApplicableNote({ children }: { children?: ReactNode }) {
  return <span className="text-xs text-violet-700">{children ?? 'n/a (legacy)'}</span>;
}
