import { redirect } from 'next/navigation';
import { roleAtLeast } from '@gitbench/core';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Settings · GitBench' };

/** The header's Settings link for everyone: members and admins land on their first tab; a viewer has none. */
export default async function SettingsPage() {
  const actor = await requirePage('viewer');
  if (roleAtLeast(actor.role, 'member')) redirect('/settings/tokens');
  return (
    <div className="max-w-3xl space-y-3">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <p className="text-sm text-slate-600" data-testid="settings-viewer">
        As a viewer you read results and change nothing, so there is nothing to set here. API tokens need the member
        role, and users, provider keys and the audit log the admin role: ask an admin.
      </p>
    </div>
  );
}
