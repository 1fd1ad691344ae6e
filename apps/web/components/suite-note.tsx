/** Says which suite version a view's figures are over, or that they pool several because the reader asked. */
export function SuiteNote({ suite, what = 'Every figure here is' }: { suite: string | null; what?: string }) {
  return (
    <p className="mt-1 text-sm text-slate-700" data-testid="suite-note">
      {suite === null ? (
        <>
          {what} pooled over <strong>every suite version</strong>, as asked: success rates over different fixture sets
          averaged together.
        </>
      ) : (
        <>
          {what} over suite version <strong className="font-mono">{suite}</strong>; choose another under Suite version.
        </>
      )}
    </p>
  );
}
