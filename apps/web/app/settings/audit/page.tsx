import Link from 'next/link';
import {
  auditFilterChoices,
  auditTargetNames,
  countAuditEvents,
  listAuditEvents,
  type AuditFilter,
} from '@gitbench/db';
import { DataTable } from '@/components/data-table';
import { LabelledSelect } from '@/components/labelled-select';
import { LocalTime } from '@/components/local-time';
import { SettingsNav } from '@/components/settings-nav';
import { requirePage } from '@/lib/auth/guard';
import { auditDetailLines } from '@/lib/format/audit-detail';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Audit log · GitBench' };

const PAGE = 100;
const FILTERS = [
  ['actorEmail', 'Who'],
  ['action', 'Action'],
  ['targetType', 'On'],
  ['via', 'Via'],
] as const satisfies readonly (readonly [keyof AuditFilter, string])[];

/** `?key=value` of the current filters, with the cursor when there is one. */
function auditHref(filter: AuditFilter, before?: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
  if (before) q.set('before', before);
  const s = q.toString();
  return `/settings/audit${s ? `?${s}` : ''}`;
}

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requirePage('admin');
  const sp = await searchParams;
  const db = services().db;
  const choices = await auditFilterChoices(db);
  // Only values the log holds are taken, so a hand-edited URL cannot ask for anything else.
  const filter: AuditFilter = {};
  for (const [key] of FILTERS) {
    const v = sp[key];
    if (typeof v === 'string' && choices[key].includes(v)) filter[key] = v;
  }
  const cursor = typeof sp.before === 'string' && /^aud_[A-Za-z0-9]+$/.test(sp.before) ? sp.before : undefined;
  // One more than a page: whether older entries exist is known without a link to an empty page.
  const [fetched, total] = await Promise.all([
    listAuditEvents(db, { ...filter, limit: PAGE + 1, ...(cursor ? { before: cursor } : {}) }),
    countAuditEvents(db, filter),
  ]);
  const events = fetched.slice(0, PAGE);
  const names = await auditTargetNames(db, events);
  const targetName = (e: (typeof events)[number]) =>
    e.targetId ? names.get(`${e.targetType}:${e.targetId}`) : undefined;
  const last = events[events.length - 1];
  const filtered = Object.keys(filter).length > 0;
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <SettingsNav role={actor.role} current="/settings/audit" />
      {/* Keyed by the filters: after a link changes them, the selects show the new choice, not the old default. */}
      <form
        key={JSON.stringify(filter)}
        method="get"
        action="/settings/audit"
        aria-label="Filter the audit log"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
      >
        {FILTERS.map(([key, label]) => (
          <LabelledSelect
            key={key}
            name={key}
            label={label}
            value={filter[key] ?? ''}
            options={[{ value: '', label: 'All' }, ...choices[key].map((v) => ({ value: v, label: v }))]}
          />
        ))}
        <button
          type="submit"
          className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Apply
        </button>
        {filtered ? (
          <Link href="/settings/audit" className="py-1.5 text-sm text-indigo-700 underline">
            Clear filters
          </Link>
        ) : null}
      </form>
      <p className="text-sm text-slate-600" data-testid="audit-position">
        {total === 0
          ? 'No entries match.'
          : `${events.length} of ${total} ${filtered ? 'matching ' : ''}entr${total === 1 ? 'y' : 'ies'} ` +
            `shown${cursor ? ', older than the previous page' : ', newest first'}.`}
      </p>
      <DataTable
        rows={events}
        rowKey={(e) => e.id}
        testId="audit-log"
        searchLabel="the audit log"
        search={(e) =>
          `${e.targetId ?? ''} ${targetName(e) ?? ''} ${auditDetailLines(e.detail)
            .map((l) => `${l.key} ${l.value}`)
            .join(' ')}`
        }
        dense
        caption={
          'Who created, cancelled, retried, exported or published a campaign, and who ' +
          'changed a user, a token, a key or a setting. Times in your time zone; UTC on hover.'
        }
        empty={
          <p className="text-sm text-slate-600">
            {filtered ? 'Nothing recorded under these filters.' : 'Nothing recorded yet.'}
          </p>
        }
        columns={[
          { header: 'When', sort: (e) => e.at.getTime(), cell: (e) => <LocalTime at={e.at} seconds /> },
          { header: 'Who', sort: (e) => e.actorEmail, cell: (e) => e.actorEmail, className: 'whitespace-nowrap' },
          { header: 'Via', sort: (e) => e.via, cell: (e) => e.via },
          { header: 'Action', sort: (e) => e.action, cell: (e) => <code>{e.action}</code> },
          {
            header: 'On',
            sort: (e) => `${e.targetType} ${targetName(e) ?? e.targetId ?? ''}`,
            cell: (e) => {
              const name = targetName(e);
              const label = name ?? e.targetId;
              return (
                <span>
                  <span className="text-slate-500">{e.targetType.replace('_', ' ')}</span>{' '}
                  {e.targetType === 'campaign' && e.targetId ? (
                    <Link className="text-indigo-700 underline" href={`/campaigns/${e.targetId}`} title={e.targetId}>
                      {label}
                    </Link>
                  ) : label ? (
                    <span title={e.targetId ?? undefined}>{label}</span>
                  ) : null}
                </span>
              );
            },
          },
          {
            header: 'Detail',
            cell: (e) => {
              const lines = auditDetailLines(e.detail);
              return lines.length ? (
                <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs" data-testid="audit-detail">
                  {lines.map((l) => (
                    <div key={l.key} className="contents">
                      <dt className="text-slate-500">{l.key}</dt>
                      <dd className="break-words">{l.value}</dd>
                    </div>
                  ))}
                </dl>
              ) : null;
            },
            className: 'min-w-56 max-w-md',
          },
        ]}
      />
      <nav aria-label="Audit log pages" className="flex gap-4 text-sm">
        {cursor ? (
          <Link className="text-indigo-700 underline" href={auditHref(filter)}>
            Newest entries
          </Link>
        ) : null}
        {fetched.length > PAGE && last ? (
          <Link className="text-indigo-700 underline" href={auditHref(filter, last.id)}>
            Older entries
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
