'use client';

import { useState, type FormEvent } from 'react';
import { errorText, sendJson } from './send-json';

const input =
  'mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-indigo-500';

/** Email and password, and with `firstAdmin` a name: the sign-in form and the first-run form. */
export function CredentialsForm({
  next,
  firstAdmin = false,
  oidcName,
}: {
  next: string;
  firstAdmin?: boolean;
  oidcName?: string;
}) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (firstAdmin) {
        const created = await sendJson('/api/setup', 'POST', { name, email, password });
        if (!created.ok) {
          setError(errorText(created.json, created.status));
          return;
        }
      }
      const signedIn = await sendJson('/api/auth/sign-in/email', 'POST', { email, password });
      if (!signedIn.ok) {
        setError(signedIn.status === 401 ? 'Wrong email or password.' : errorText(signedIn.json, signedIn.status));
        return;
      }
      window.location.assign(next);
    } catch (err) {
      setError(`Could not reach the server: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  async function oidc() {
    const started = await sendJson('/api/auth/sign-in/social', 'POST', { provider: 'oidc', callbackURL: next });
    if (started.ok && typeof started.json.url === 'string') window.location.assign(started.json.url);
    else setError(errorText(started.json, started.status));
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="space-y-3" aria-label={firstAdmin ? 'Create the first admin' : 'Sign in'}>
        {error ? (
          <p className="rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-800" role="alert">
            {error}
          </p>
        ) : null}
        {firstAdmin ? (
          <label className="block text-sm font-medium">
            Name
            <input
              className={input}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="name"
              required
            />
          </label>
        ) : null}
        <label className="block text-sm font-medium">
          Email
          <input
            className={input}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="username"
            required
          />
        </label>
        <label className="block text-sm font-medium">
          Password
          <input
            className={input}
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={firstAdmin ? 'new-password' : 'current-password'}
            required
          />
        </label>
        <button
          type="submit"
          disabled={busy}
          className={
            'rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium ' +
            'text-white hover:bg-indigo-700 disabled:opacity-50'
          }
        >
          {firstAdmin ? 'Create admin and sign in' : 'Sign in'}
        </button>
      </form>
      {oidcName ? (
        <button
          type="button"
          onClick={oidc}
          className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
        >
          Sign in with {oidcName}
        </button>
      ) : null}
    </div>
  );
}

export function SignOutButton() {
  return (
    <button
      type="button"
      className="whitespace-nowrap text-sm text-slate-600 underline hover:text-slate-900"
      onClick={async () => {
        await sendJson('/api/auth/sign-out', 'POST');
        window.location.assign('/sign-in');
      }}
    >
      Sign out
    </button>
  );
}
