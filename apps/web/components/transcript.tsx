import { Pre } from './evidence';

type Message = Record<string, unknown>;

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v))
    return v
      .map((p) =>
        typeof p === 'object' && p && 'text' in p ? String((p as { text: unknown }).text) : JSON.stringify(p),
      )
      .join('\n');
  return JSON.stringify(v, null, 2);
}

const REASONING_KEYS = ['reasoning', 'reasoning_content', 'thinking', 'reasoning_details'];

/** The conversation as recorded, with any reasoning the provider returned shown apart from the answer. */
export function Transcript({ transcript }: { transcript: unknown }) {
  const messages = Array.isArray(transcript) ? (transcript as Message[]) : [];
  if (messages.length === 0) return <p className="text-sm text-slate-500">No transcript was recorded for this try.</p>;
  return (
    <ol className="space-y-3" data-testid="transcript">
      {messages.map((m, i) => {
        const reasoning = REASONING_KEYS.map((k) => text(m[k]))
          .filter(Boolean)
          .join('\n');
        const rest = Object.fromEntries(
          Object.entries(m).filter(([k]) => !['role', 'content', ...REASONING_KEYS].includes(k)),
        );
        return (
          <li key={i} className="space-y-1">
            <div className="text-xs font-semibold uppercase tracking-wide text-slate-500">
              {String(m.role ?? 'message')}
            </div>
            {reasoning ? (
              <details className="rounded border border-amber-200 bg-amber-50 p-2 text-xs" open>
                <summary className="cursor-pointer font-medium text-amber-900">Reasoning</summary>
                <pre className="mt-1 whitespace-pre-wrap font-mono text-amber-950">{reasoning}</pre>
              </details>
            ) : null}
            <Pre copy={text(m.content) ? `${String(m.role ?? 'message')} message` : undefined}>
              {text(m.content) || '(empty)'}
            </Pre>
            {Object.keys(rest).length > 0 ? <Pre>{JSON.stringify(rest, null, 2)}</Pre> : null}
          </li>
        );
      })}
    </ol>
  );
}
