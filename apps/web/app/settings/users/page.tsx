import { ROLES } from '@gitbench/core';
import { SettingsNav } from '@/components/settings-nav';
import { UsersPanel } from '@/components/users-panel';
import { requirePage } from '@/lib/auth/guard';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Users · GitBench' };

export default async function UsersPage() {
  const actor = await requirePage('admin');
  const users = await services().db.user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, email: true, name: true, role: true, banned: true, createdAt: true },
  });
  return (
    <div className="max-w-5xl space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <SettingsNav role={actor.role} current="/settings/users" />
      <p className="text-sm text-slate-600">
        Viewers read; members also launch, cancel, retry and export; admins also manage users, provider keys and
        settings. A deactivated user cannot sign in, and their sessions and API tokens stop working at once.
      </p>
      <UsersPanel
        initial={users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() }))}
        roles={[...ROLES]}
        self={actor.userId}
      />
    </div>
  );
}
