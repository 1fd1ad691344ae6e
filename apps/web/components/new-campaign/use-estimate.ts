'use client';

import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import type { Estimate } from '../launch-estimate';
import type { CampaignBody, Errors } from './draft';

/**
 * Asks the server for the size, cost and time of the campaign whenever the body changes (debounced),
 * and puts its validation errors beside the fields. The name is filled in for the estimate, so the
 * name's error comes from a launch attempt and stays until the person edits the field. `pending` says
 * that the estimate shown was asked for an earlier body (the debounce or the request is under way), so
 * whoever reads it (a screen reader through aria-busy, a test) can wait for the one that matches.
 */
export function useEstimate(body: CampaignBody, setErrors: Dispatch<SetStateAction<Errors>>) {
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [answeredFor, setAnsweredFor] = useState<CampaignBody | null>(null);
  const ready = body.models.length > 0 && body.outputModes.length > 0;
  useEffect(() => {
    if (!ready) {
      setEstimate(null);
      return;
    }
    const ctrl = new AbortController();
    const t = setTimeout(async () => {
      try {
        const r = await fetch('/api/campaigns/estimate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, name: body.name || 'estimate' }),
          signal: ctrl.signal,
        });
        const json = await r.json();
        const launchOnly = (prev: Errors) =>
          Object.fromEntries(Object.entries(prev.fieldErrors).filter(([k]) => k === 'name'));
        if (r.ok) {
          setEstimate(json as Estimate);
          setInvalid(false);
          setErrors((prev) => ({ formErrors: [], fieldErrors: launchOnly(prev) }));
          setAnsweredFor(body);
        } else {
          setEstimate(null);
          setInvalid(true);
          const errs = json as Errors;
          setErrors((prev) => ({
            formErrors: errs.formErrors ?? [],
            fieldErrors: { ...launchOnly(prev), ...errs.fieldErrors },
          }));
          setAnsweredFor(body);
        }
      } catch (e) {
        if ((e as Error).name !== 'AbortError') {
          setEstimate(null);
          setAnsweredFor(body);
        }
      }
    }, 300);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [body, ready, setErrors]);
  return { estimate, invalid, ready, pending: ready && answeredFor !== body };
}
