import { NextResponse } from 'next/server';
import { estimateCampaignCost, type PlannedTarget, type TargetPricing } from '@gitbench/core';
import { prepareCampaign } from '@gitbench/use-cases';
import { PRICE_TABLE } from '@gitbench/providers';
import { campaignDeps, withCreator } from '@/lib/campaigns/service';
import { readJson } from '@/lib/campaigns/http';
import { apiRoute } from '@/lib/auth/api-route';
import { campaignTimeEstimate } from '@/lib/queries/time-estimate';
import { providerRegistry, services } from '@/lib/services';

export const dynamic = 'force-dynamic';

/**
 * What a configuration would run, what it would cost and how long it would take, before anything is written: the form
 * shows it before launch.
 */
export const POST = apiRoute('member', async ({ request, actor }) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const prepared = await prepareCampaign(withCreator(body.value, actor), await campaignDeps());
  if (!prepared.ok) return NextResponse.json(prepared.errors, { status: 400 });
  const registry = await providerRegistry();
  const pricing = new Map<string, TargetPricing>();
  for (const target of prepared.plan.targets) {
    const described = registry.describeModel(target.modelId);
    const recorded = await registry.recordedCosts(target.modelId).catch(() => undefined);
    const key = `${target.modelId}|${target.outputMode}`;
    if (recorded)
      pricing.set(key, {
        kind: 'recorded',
        usdOf: (domain, fixtureId) =>
          target.outputMode === 'agent' ? null : recorded(domain, fixtureId, target.outputMode),
      });
    else if (described.ok && described.builtin) pricing.set(key, { kind: 'free' });
    else pricing.set(key, { kind: 'priced', baseModel: target.baseModel });
  }
  const cost = estimateCampaignCost(
    { targets: prepared.plan.targets, fixtures: prepared.plan.fixtures, trials: prepared.config.trials },
    (t: PlannedTarget) => pricing.get(`${t.modelId}|${t.outputMode}`) ?? { kind: 'priced', baseModel: t.baseModel },
    PRICE_TABLE,
    new Date(),
  );
  const perTarget = prepared.plan.targets.map((t) => ({
    modelId: t.modelId,
    outputMode: t.outputMode,
    attempts: prepared.plan.attempts.filter((a) => a.modelId === t.modelId && a.outputMode === t.outputMode).length,
  }));
  const time = await campaignTimeEstimate(services().db, perTarget);
  return NextResponse.json({
    attempts: prepared.plan.attempts.length,
    fixtures: prepared.plan.fixtures.length,
    targets: prepared.plan.targets.length,
    trials: prepared.config.trials,
    suiteVersion: prepared.config.fixtures.suiteVersion,
    configHash: prepared.hash,
    costEstimateUsd: cost.usd,
    costNote: cost.note,
    costByTarget: cost.targets,
    skippedInvalidFixtures: prepared.suite.invalid.length,
    time,
  });
});
