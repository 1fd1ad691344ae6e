/** Says which keys move through a list (see lib/keyboard/list-keys.ts); hidden on touch screens' narrow widths. */
export function KeysHint({ what }: { what: string }) {
  const kbd = 'rounded border border-slate-300 bg-slate-50 px-1 font-mono text-[10px] text-slate-700';
  return (
    <span className="hidden text-xs text-slate-500 sm:inline" data-testid="keys-hint">
      <kbd className={kbd}>j</kbd> / <kbd className={kbd}>k</kbd> next / previous {what} ·{' '}
      <kbd className={kbd}>Enter</kbd> opens it
    </span>
  );
}
