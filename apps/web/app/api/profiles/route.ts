import { NextResponse } from 'next/server';
import { OWN_AGENT } from '@gitbench/core';
import { describeAgents } from '@gitbench/engine';
import { BUILTIN_MODELS, BUILTIN_PROFILE } from '@gitbench/providers';
import { describeSuites } from '@/lib/campaigns/suites';
import { providerRegistry } from '@/lib/services';
import { apiRoute } from '@/lib/auth/api-route';

export const dynamic = 'force-dynamic';

/**
 * What the new-campaign form offers: models by profile (built-in first), the suites with their facets,
 * and the agents that drive models in agent mode (GitBench's own loop first, then `gitbench agents`).
 */
export const GET = apiRoute('member', async () => {
  const registry = await providerRegistry();
  // Replay needs a result file, which a checkbox cannot name; it stays available through the API and CLI.
  const builtin = BUILTIN_MODELS.filter((m) => m.kind !== 'replay');
  const profiles = [
    {
      name: BUILTIN_PROFILE,
      provider: BUILTIN_PROFILE,
      models: builtin.map((m) => m.model),
      note: `No endpoint; ${builtin
        .filter((m) => m.simulated)
        .map((m) => m.model)
        .join(', ')} is not a model: its results are labelled simulated.`,
    },
    ...registry.listProfiles().map((p) => ({
      name: p.name,
      provider: p.provider,
      models: p.models,
      ...(p.apiKey === 'missing' ? { note: `${p.apiKeyEnv} is not set here; workers need it.` } : {}),
    })),
  ];
  const agents = [
    { name: OWN_AGENT, displayName: "GitBench's own loop", version: null, protocol: null },
    ...describeAgents().map((a) => ({
      name: a.name,
      displayName: a.displayName,
      version: a.version,
      protocol: a.protocol,
    })),
  ];
  return NextResponse.json({ profiles, suites: await describeSuites(), agents });
});
