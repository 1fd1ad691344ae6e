import { DIFFICULTIES, SIMULATED_MODEL_ID } from '@gitbench/core';
import { NewCampaignForm } from '@/components/new-campaign/new-campaign-form';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'New campaign · GitBench' };

export default async function NewCampaignPage() {
  await requirePage('member');
  return (
    <div className="max-w-4xl space-y-5">
      <div>
        <h1 className="text-2xl font-semibold">New campaign</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every chosen model runs every selected fixture in each output mode, once per trial, each attempt in its own
          sandbox. You will see the number of attempts, a cost estimate and a time estimate, and confirm them, before
          launching.
        </p>
      </div>
      <NewCampaignForm
        vocabulary={{ difficulties: [...DIFFICULTIES], simulatedModelPattern: SIMULATED_MODEL_ID.source }}
      />
    </div>
  );
}
