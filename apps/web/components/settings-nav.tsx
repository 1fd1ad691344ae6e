import Link from 'next/link';
import type { Role } from '@gitbench/core';

const TABS: { href: string; label: string; role: Role }[] = [
  { href: '/settings/tokens', label: 'API tokens', role: 'member' },
  { href: '/settings/users', label: 'Users', role: 'admin' },
  { href: '/settings/provider-keys', label: 'Provider keys', role: 'admin' },
  { href: '/settings/audit', label: 'Audit log', role: 'admin' },
];

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2 };

/** The settings pages a role may open, the current one marked. */
export function SettingsNav({ role, current }: { role: Role; current: string }) {
  return (
    <nav aria-label="Settings" className="flex gap-4 border-b border-slate-200 text-sm">
      {TABS.filter((t) => RANK[role] >= RANK[t.role]).map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.href === current ? 'page' : undefined}
          className={
            '-mb-px border-b-2 px-1 pb-2 ' +
            (t.href === current
              ? 'border-indigo-600 font-medium text-slate-900'
              : 'border-transparent text-slate-600 hover:text-slate-900')
          }
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
