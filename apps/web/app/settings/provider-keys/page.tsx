import { listProviderKeys } from '@gitbench/db';
import { SettingsNav } from '@/components/settings-nav';
import { ProviderKeysPanel } from '@/components/provider-keys-panel';
import { requirePage } from '@/lib/auth/guard';
import { webEnv } from '@/lib/env';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Provider keys · GitBench' };

export default async function ProviderKeysPage() {
  const actor = await requirePage('admin');
  const keys = await listProviderKeys(services().db, webEnv().GITBENCH_SECRET_KEY);
  return (
    <div className="max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <SettingsNav role={actor.role} current="/settings/provider-keys" />
      <p className="text-sm text-slate-600">
        Keys for model providers, stored encrypted (AES-256-GCM under a key derived from{' '}
        <code>GITBENCH_SECRET_KEY</code>) and never shown again. A profile uses one with{' '}
        <code>&quot;api_key_ref&quot;: &quot;&lt;name&gt;&quot;</code> in gitbench.json; workers read them with the same
        secret. Saving a name that exists replaces its key.
      </p>
      <ProviderKeysPanel
        initial={keys.map((k) => ({
          name: k.name,
          createdBy: k.createdBy,
          updatedAt: k.updatedAt.toISOString(),
          readable: k.readable,
        }))}
      />
    </div>
  );
}
