import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/credentials-form';
import { currentActor, publicLeaderboard } from '@/lib/auth/guard';
import './globals.css';

export const metadata: Metadata = {
  title: 'GitBench',
  description: 'How well do language models and coding agents handle Git? Evidence, not vibes.',
};

const NAV = [
  ['/', 'Leaderboard'],
  ['/campaigns', 'Campaigns'],
  ['/campaigns/new', 'New campaign'],
  ['/families', 'Families'],
  ['/suites', 'Suites'],
  ['/models', 'Models'],
  ['/quadrant', 'Cost vs quality'],
  ['/compare', 'Compare'],
  ['/methodology', 'Methodology'],
  ['/status', 'System status'],
] as const;
/** What an anonymous visitor of the public leaderboard may open. */
const PUBLIC_NAV = [
  ['/', 'Leaderboard'],
  ['/methodology', 'Methodology'],
] as const;

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  const nav = actor ? NAV : publicLeaderboard() ? PUBLIC_NAV : [];
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <a
          href="#main"
          className={
            'sr-only focus:not-sr-only focus:absolute focus:left-2 ' +
            'focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2'
          }
        >
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
            <a href="/" className="text-lg font-semibold tracking-tight">
              GitBench
            </a>
            {nav.length > 0 ? (
              <nav
                aria-label="Main"
                className={
                  '-mx-4 flex w-[calc(100%+2rem)] gap-4 overflow-x-auto whitespace-nowrap px-4 ' +
                  'text-sm text-slate-600 sm:mx-0 sm:w-auto sm:flex-wrap sm:overflow-visible sm:px-0'
                }
              >
                {nav.map(([href, label]) => (
                  <a key={href} href={href} className="hover:text-slate-900">
                    {label}
                  </a>
                ))}
              </nav>
            ) : null}
            {actor ? (
              <div className="ml-auto flex items-center gap-3 text-sm text-slate-600" data-testid="signed-in-as">
                <span>
                  {actor.email} · {actor.role}
                </span>
                {actor.role !== 'viewer' ? (
                  <a
                    href={actor.role === 'admin' ? '/settings/users' : '/settings/tokens'}
                    className="hover:text-slate-900"
                  >
                    Settings
                  </a>
                ) : null}
                <SignOutButton />
              </div>
            ) : nav.length > 0 ? (
              <a href="/sign-in" className="ml-auto text-sm text-slate-600 hover:text-slate-900">
                Sign in
              </a>
            ) : null}
          </div>
        </header>
        <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
          {children}
        </main>
      </body>
    </html>
  );
}
