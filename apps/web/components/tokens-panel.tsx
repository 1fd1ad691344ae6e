'use client';

import { useState, type FormEvent } from 'react';
import { ErrorNote, fieldInput as input, PanelTable, SubmitButton } from './panel-parts';
import { LocalTime } from './local-time';
import { errorText, sendJson } from './send-json';

export interface TokenRow {
  id: string;
  name: string;
  role: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** Create a token (shown once), list them, revoke one. */
export function TokensPanel({ initial, roles }: { initial: TokenRow[]; roles: string[] }) {
  const [tokens, setTokens] = useState(initial);
  const [name, setName] = useState('');
  const [role, setRole] = useState(roles[roles.length - 1] ?? 'member');
  const [fresh, setFresh] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function reload() {
    const res = await fetch('/api/tokens', { cache: 'no-store' });
    if (res.ok) setTokens(((await res.json()) as { tokens: TokenRow[] }).tokens);
  }

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const made = await sendJson('/api/tokens', 'POST', { name, role });
    if (!made.ok) return setError(errorText(made.json, made.status));
    setFresh(String(made.json.token));
    setName('');
    await reload();
  }

  async function revoke(id: string) {
    const done = await sendJson(`/api/tokens/${encodeURIComponent(id)}`, 'DELETE');
    if (!done.ok) setError(errorText(done.json, done.status));
    await reload();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={create} className="flex flex-wrap items-end gap-3" aria-label="New API token">
        <label className="text-sm font-medium">
          Name
          <input
            className={`${input} block w-64`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="CI nightly"
            required
          />
        </label>
        <label className="text-sm font-medium">
          Role
          <select className={`${input} block`} value={role} onChange={(e) => setRole(e.target.value)}>
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <SubmitButton>Create token</SubmitButton>
      </form>
      <ErrorNote error={error} />
      {fresh ? (
        <div className="rounded border border-emerald-200 bg-emerald-50 p-3 text-sm" data-testid="new-token">
          <p className="font-medium text-emerald-900">Copy this token now: it is not shown again.</p>
          <code className="mt-1 block break-all font-mono text-xs" data-testid="new-token-value">
            {fresh}
          </code>
          <p className="mt-1 text-xs text-slate-700">
            Use it as <code>Authorization: Bearer …</code>, or for the CLI:{' '}
            <code>GITBENCH_URL=… GITBENCH_TOKEN=… npx gitbench campaign status …</code>
          </p>
        </div>
      ) : null}
      <PanelTable headers={['Name', 'Role', 'Starts with', 'Created', 'Last used', 'State', '']} testId="tokens">
        {tokens.length === 0 ? (
          <tr>
            <td colSpan={7} className="px-3 py-4 text-center text-slate-600">
              No tokens yet.
            </td>
          </tr>
        ) : (
          tokens.map((t) => (
            <tr key={t.id} className="border-t border-slate-100">
              <td className="px-3 py-2">{t.name}</td>
              <td className="px-3 py-2">{t.role}</td>
              <td className="px-3 py-2 font-mono text-xs">{t.prefix}…</td>
              <td className="px-3 py-2">
                <LocalTime at={t.createdAt} />
              </td>
              <td className="px-3 py-2">
                <LocalTime at={t.lastUsedAt} />
              </td>
              <td className="px-3 py-2">
                {t.revokedAt ? (
                  <>
                    revoked <LocalTime at={t.revokedAt} />
                  </>
                ) : t.expiresAt && t.expiresAt < new Date().toISOString() ? (
                  'expired'
                ) : (
                  'active'
                )}
              </td>
              <td className="px-3 py-2 text-right">
                {t.revokedAt ? null : (
                  <button
                    type="button"
                    className="text-rose-700 underline"
                    onClick={() => revoke(t.id)}
                    aria-label={`Revoke ${t.name}`}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))
        )}
      </PanelTable>
    </div>
  );
}
