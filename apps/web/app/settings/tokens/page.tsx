import { listApiTokens } from '@gitbench/auth';
import { ROLES, roleAtLeast } from '@gitbench/core';
import { SettingsNav } from '@/components/settings-nav';
import { TokensPanel } from '@/components/tokens-panel';
import { requirePage } from '@/lib/auth/guard';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'API tokens · GitBench' };

export default async function TokensPage() {
  const actor = await requirePage('member');
  const tokens = await listApiTokens(services().db, actor.userId);
  return (
    <div className="max-w-4xl space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <SettingsNav role={actor.role} current="/settings/tokens" />
      <p className="text-sm text-slate-600">
        Tokens let the CLI and CI act as you, with the role you give them (never above yours). Only a hash is stored: a
        token is shown once, when you create it. Revoke one and it stops working at once.
      </p>
      <TokensPanel
        initial={tokens.map((t) => ({
          ...t,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          expiresAt: t.expiresAt?.toISOString() ?? null,
          revokedAt: t.revokedAt?.toISOString() ?? null,
        }))}
        roles={ROLES.filter((r) => roleAtLeast(actor.role, r))}
      />
    </div>
  );
}
