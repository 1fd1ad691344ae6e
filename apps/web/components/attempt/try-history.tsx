import { DataTable } from '@/components/data-table';
import { Section } from '@/components/empty-state';
import { DASH } from '@/components/format';
import { LocalTime } from '@/components/local-time';
import { StatusBadge } from '@/components/status-badge';
import type { AttemptRecord } from '@/lib/queries/attempt';

/** Every try of the attempt, newest first: who ran it, when, and how it ended. */
export function TryHistory({ tries }: { tries: AttemptRecord['tries'] }) {
  return (
    <Section title={`Retry history (${tries.length} tr${tries.length === 1 ? 'y' : 'ies'})`} id="tries">
      <DataTable
        rows={tries}
        rowKey={(t) => t.id}
        testId="try-history"
        empty={<p className="text-sm text-slate-500">No try has finished yet.</p>}
        columns={[
          { header: 'Try', className: 'tabular-nums', cell: (t) => t.tryNumber },
          { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
          { header: 'Worker', className: 'font-mono text-xs', cell: (t) => t.workerId },
          { header: 'Started', className: 'text-xs', cell: (t) => <LocalTime at={t.startedAt} seconds /> },
          { header: 'Finished', className: 'text-xs', cell: (t) => <LocalTime at={t.finishedAt} seconds /> },
          {
            header: 'Error',
            className: 'text-xs text-slate-700',
            cell: (t) => [t.errorClass, t.errorMessage].filter(Boolean).join(': ') || DASH,
          },
        ]}
      />
    </Section>
  );
}
