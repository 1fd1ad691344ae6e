import Link from 'next/link';

// Apart from item-analysis.tsx, which reads the database: a page part that only links a suite needs none of it.

export function suiteHref(suite: string): string {
  return `/suites/${suite.split('/').map(encodeURIComponent).join('/')}`;
}

export function SuiteLink({ suite }: { suite: string }) {
  return (
    <Link className="font-mono text-indigo-700 hover:underline" href={suiteHref(suite)}>
      {suite}
    </Link>
  );
}
