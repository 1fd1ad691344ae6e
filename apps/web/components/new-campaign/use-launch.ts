'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import type { Estimate } from '../launch-estimate';
import type { CampaignBody, Errors } from './draft';

/** The server's refusal of a launch, as the form shows it: its own errors, or at least its status. */
function launchRefusal(status: number, json: unknown): Errors {
  const errs = json as Partial<Errors> & { error?: string };
  return {
    formErrors: errs.formErrors ?? (errs.error ? [errs.error] : [`The server answered ${status}.`]),
    fieldErrors: errs.fieldErrors ?? {},
  };
}

/**
 * Submitting the form: with a valid estimate and a name it asks for confirmation first, otherwise (and
 * once confirmed) it launches, then opens the new campaign or puts the server's errors beside the fields.
 */
export function useLaunch(body: CampaignBody, estimate: Estimate | null, setErrors: Dispatch<SetStateAction<Errors>>) {
  const router = useRouter();
  const [submitting, setSubmitting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  // A changed selection changes what would launch: ask again.
  useEffect(() => setConfirming(false), [body]);

  async function launchNow() {
    setSubmitting(true);
    try {
      const r = await fetch('/api/campaigns', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await r.json().catch(() => ({}));
      if (r.status === 201 || r.ok) {
        router.push(`/campaigns/${(json as { campaignId: string }).campaignId}`);
        return;
      }
      setErrors(launchRefusal(r.status, json));
    } catch (err) {
      setErrors({ formErrors: [`Could not reach the server: ${(err as Error).message}`], fieldErrors: {} });
    } finally {
      setSubmitting(false);
      setConfirming(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    // Launching spends money and worker time: confirm the numbers first. Without a valid estimate (or a
    // name) the server's answer is what the person needs, beside the fields.
    if (estimate && body.name) setConfirming(true);
    else void launchNow();
  }

  return { submitting, confirming, submit, launchNow, stopConfirming: () => setConfirming(false) };
}
