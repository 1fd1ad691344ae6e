import Link from 'next/link';
import { statusLabel, StatusBadge } from './status-badge';

export interface AttemptLink {
  id: string;
  trial: number;
  status: string;
  score?: number | null;
}

/** One badge per attempt in trial order, each a link to its evidence. */
export function AttemptLinks({
  attempts,
  of,
  className = '',
}: {
  attempts: AttemptLink[];
  of?: string;
  className?: string;
}) {
  return (
    <div className={`flex flex-wrap gap-1 ${className}`}>
      {attempts.map((a) => (
        <Link
          key={a.id}
          href={`/attempts/${a.id}`}
          className="rounded hover:opacity-80 focus:outline-2 focus:outline-indigo-500"
          aria-label={`Trial ${a.trial}${of ? ` of ${of}` : ''}: ${statusLabel(a.status)}`}
        >
          <StatusBadge
            status={a.status}
            title={
              `Trial ${a.trial}` + (a.score !== null && a.score !== undefined ? `, score ${a.score.toFixed(2)}` : '')
            }
          />
        </Link>
      ))}
    </div>
  );
}
