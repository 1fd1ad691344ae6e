'use client';

import { useState, type FormEvent } from 'react';
import { ErrorNote, fieldInput as input, PanelTable, SubmitButton } from './panel-parts';
import { errorText, sendJson } from './send-json';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  banned: boolean | null;
  createdAt: string;
}

/** Add a user (their password is shown once), change a role, deactivate or reactivate. */
export function UsersPanel({ initial, roles, self }: { initial: UserRow[]; roles: string[]; self: string }) {
  const [users, setUsers] = useState(initial);
  const [form, setForm] = useState({ email: '', name: '', role: 'viewer' });
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function reload() {
    const res = await fetch('/api/users', { cache: 'no-store' });
    if (res.ok) setUsers(((await res.json()) as { users: UserRow[] }).users);
  }

  async function add(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const made = await sendJson('/api/users', 'POST', form);
    if (!made.ok) return setError(errorText(made.json, made.status));
    setCreated({ email: String(made.json.email), password: String(made.json.password) });
    setForm({ email: '', name: '', role: 'viewer' });
    await reload();
  }

  async function change(id: string, body: { role?: string; banned?: boolean }) {
    setError(null);
    const done = await sendJson(`/api/users/${encodeURIComponent(id)}`, 'PATCH', body);
    if (!done.ok) setError(errorText(done.json, done.status));
    await reload();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={add} className="flex flex-wrap items-end gap-3" aria-label="Add a user">
        <label className="text-sm font-medium">
          Email
          <input
            className={`${input} block w-64`}
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
            required
          />
        </label>
        <label className="text-sm font-medium">
          Name
          <input
            className={`${input} block w-48`}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            required
          />
        </label>
        <label className="text-sm font-medium">
          Role
          <select
            className={`${input} block`}
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value })}
          >
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <SubmitButton>Add user</SubmitButton>
      </form>
      <ErrorNote error={error} />
      {created ? (
        <p className="rounded border border-emerald-200 bg-emerald-50 p-3 text-sm" data-testid="new-user">
          {created.email} can sign in with the password <code className="font-mono">{created.password}</code> (shown
          once: pass it on).
        </p>
      ) : null}
      <PanelTable headers={['Email', 'Name', 'Role', 'State', '']} testId="users">
        {users.map((u) => (
          <tr key={u.id} className="border-t border-slate-100">
            <td className="px-3 py-2">{u.email}</td>
            <td className="px-3 py-2">{u.name}</td>
            <td className="px-3 py-2">
              <select
                aria-label={`Role of ${u.email}`}
                className="rounded border border-slate-300 px-1 py-0.5"
                value={u.role}
                onChange={(e) => change(u.id, { role: e.target.value })}
              >
                {roles.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </td>
            <td className="px-3 py-2">{u.banned ? 'deactivated' : 'active'}</td>
            <td className="px-3 py-2 text-right">
              {u.id === self ? (
                <span className="text-xs text-slate-500">you</span>
              ) : (
                <button type="button" className="underline" onClick={() => change(u.id, { banned: !u.banned })}>
                  {u.banned ? 'Reactivate' : 'Deactivate'}
                </button>
              )}
            </td>
          </tr>
        ))}
      </PanelTable>
    </div>
  );
}
