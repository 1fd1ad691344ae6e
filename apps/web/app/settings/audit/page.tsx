import Link from 'next/link';
import { listAuditEvents } from '@gitbench/db';
import { DataTable } from '@/components/data-table';
import { SettingsNav } from '@/components/settings-nav';
import { requirePage } from '@/lib/auth/guard';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Audit log · GitBench' };

const PAGE = 100;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requirePage('admin');
  const before = (await searchParams).before;
  const cursor = typeof before === 'string' && /^aud_[A-Za-z0-9]+$/.test(before) ? before : undefined;
  const events = await listAuditEvents(services().db, { limit: PAGE, ...(cursor ? { before: cursor } : {}) });
  const last = events[events.length - 1];
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <SettingsNav role={actor.role} current="/settings/audit" />
      <DataTable
        rows={events}
        rowKey={(e) => e.id}
        testId="audit-log"
        searchLabel="the audit log"
        search={(e) => `${e.targetId ?? ''} ${e.detail ? JSON.stringify(e.detail) : ''}`}
        dense
        caption="Who created, cancelled, retried, exported or published a campaign, and who changed a user, a token, a key or a setting. Newest first."
        empty={<p className="text-sm text-slate-600">Nothing recorded yet.</p>}
        columns={[
          { header: 'When (UTC)', sort: (e) => e.at.getTime(), cell: (e) => e.at.toISOString().replace('T', ' ').slice(0, 19), className: 'tabular-nums whitespace-nowrap' },
          { header: 'Who', sort: (e) => e.actorEmail, cell: (e) => e.actorEmail },
          { header: 'Via', sort: (e) => e.via, cell: (e) => e.via },
          { header: 'Action', sort: (e) => e.action, cell: (e) => <code>{e.action}</code> },
          {
            header: 'On',
            sort: (e) => `${e.targetType} ${e.targetId ?? ''}`,
            cell: (e) =>
              e.targetType === 'campaign' && e.targetId ? (
                <Link className="text-indigo-700 underline" href={`/campaigns/${e.targetId}`}>
                  {e.targetId}
                </Link>
              ) : (
                `${e.targetType}${e.targetId ? ` ${e.targetId}` : ''}`
              ),
          },
          { header: 'Detail', cell: (e) => (e.detail ? <code className="text-xs">{JSON.stringify(e.detail)}</code> : null), className: 'max-w-md break-all' },
        ]}
      />
      {events.length === PAGE && last ? (
        <Link className="text-sm text-indigo-700 underline" href={`/settings/audit?before=${last.id}`}>
          Older entries
        </Link>
      ) : null}
    </div>
  );
}
