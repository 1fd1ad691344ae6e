'use client';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="space-y-3 rounded-lg border border-rose-200 bg-white p-6" role="alert">
      <h1 className="text-lg font-semibold text-rose-800">This page could not be loaded</h1>
      <p className="text-sm text-slate-700">
        The server hit an error while reading the data{error.digest ? ` (reference ${error.digest})` : ''}. If it
        persists, check that PostgreSQL is reachable on the{' '}
        <a className="text-indigo-700 underline" href="/status">
          system status
        </a>{' '}
        page.
      </p>
      <button
        type="button"
        onClick={reset}
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
      >
        Try again
      </button>
    </div>
  );
}
