import { NextResponse } from 'next/server';
import { describeSuites } from '@/lib/campaigns/suites';

export const dynamic = 'force-dynamic';

/** What the new-campaign form offers: models by profile, and the suites with their facets. */
export async function GET() {
  const profiles = [
    { name: 'builtin', provider: 'builtin', models: ['oracle', 'mock', 'simulated'], note: 'No endpoint. simulated is a seeded coin, not a model: its results are labelled simulated.' },
  ];
  return NextResponse.json({ profiles, suites: await describeSuites() });
}
