'use client';

import { useState, type FormEvent } from 'react';
import { ErrorNote, fieldInput as input, PanelTable, SubmitButton } from './panel-parts';
import { LocalTime } from './local-time';
import { errorText, sendJson } from './send-json';

export interface ProviderKeyRow {
  name: string;
  createdBy: string;
  updatedAt: string;
  readable: boolean;
}

/** Add or replace a key (its value leaves the browser once and is never sent back), list them, delete one. */
export function ProviderKeysPanel({ initial }: { initial: ProviderKeyRow[] }) {
  const [keys, setKeys] = useState(initial);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function reload() {
    const res = await fetch('/api/provider-keys', { cache: 'no-store' });
    if (res.ok)
      setKeys(
        ((await res.json()) as { keys: ProviderKeyRow[] }).keys.map((k) => ({ ...k, updatedAt: String(k.updatedAt) })),
      );
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNote(null);
    const saved = await sendJson('/api/provider-keys', 'POST', { name, value });
    setValue('');
    if (!saved.ok) return setError(errorText(saved.json, saved.status));
    setNote(`${saved.json.replaced ? 'Replaced' : 'Stored'} key ${name}.`);
    setName('');
    await reload();
  }

  async function remove(keyName: string) {
    const done = await sendJson(`/api/provider-keys/${encodeURIComponent(keyName)}`, 'DELETE');
    if (!done.ok) setError(errorText(done.json, done.status));
    await reload();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={save} className="flex flex-wrap items-end gap-3" aria-label="New provider key">
        <label className="text-sm font-medium">
          Name
          <input
            className={`${input} block w-56`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="openrouter"
            required
          />
        </label>
        <label className="text-sm font-medium">
          Key
          <input
            className={`${input} block w-80`}
            type="password"
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            required
          />
        </label>
        <SubmitButton>Save key</SubmitButton>
      </form>
      <ErrorNote error={error} />
      {note ? (
        <p role="status" className="text-sm text-emerald-800">
          {note}
        </p>
      ) : null}
      <PanelTable headers={['Name', 'Set by', 'Updated', 'State', '']} testId="provider-keys">
        {keys.length === 0 ? (
          <tr>
            <td colSpan={5} className="px-3 py-4 text-center text-slate-600">
              No stored keys. Profiles can still read keys from environment variables (api_key_env).
            </td>
          </tr>
        ) : (
          keys.map((k) => (
            <tr key={k.name} className="border-t border-slate-100">
              <td className="px-3 py-2 font-mono text-xs">{k.name}</td>
              <td className="px-3 py-2">{k.createdBy}</td>
              <td className="px-3 py-2">
                <LocalTime at={k.updatedAt} />
              </td>
              <td className="px-3 py-2">
                {k.readable ? 'stored' : 'sealed under another secret: run gitbench keys rotate'}
              </td>
              <td className="px-3 py-2 text-right">
                <button
                  type="button"
                  className="text-rose-700 underline"
                  onClick={() => remove(k.name)}
                  aria-label={`Delete ${k.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))
        )}
      </PanelTable>
    </div>
  );
}
