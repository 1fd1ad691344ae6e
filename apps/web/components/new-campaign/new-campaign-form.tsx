'use client';

import { useCallback, useId, useMemo, useState } from 'react';
import { LaunchConfirmation } from '../launch-estimate';
import {
  chooseSuite,
  draftBody,
  INITIAL_DRAFT,
  NO_ERRORS,
  withoutFieldError,
  type CampaignDraft,
  type Errors,
} from './draft';
import { EstimateBar } from './estimate-bar';
import { FormErrors } from './fields';
import { NameField, RunFields } from './run-fields';
import { useEstimate } from './use-estimate';
import { useFormOptions } from './use-form-options';
import { useLaunch } from './use-launch';
import { WhatToRun } from './what-to-run';

/**
 * Domain vocabulary from core, handed over by the server page: core itself does not go into the
 * browser bundle (it hashes with node:crypto).
 */
export interface FormVocabulary {
  /** Difficulties in their own order, trivial to expert. */
  difficulties: string[];
  /** Source of core's SIMULATED_MODEL_ID pattern. */
  simulatedModelPattern: string;
}

/** Until the configured models and suites are loaded, what the form says instead of fields. */
function OptionsPending({ loadError }: { loadError: string | null }) {
  if (loadError)
    return (
      <p className="rounded border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800" role="alert">
        {loadError}
      </p>
    );
  return (
    <p className="text-sm text-slate-600" role="status">
      Loading the configured models and suites…
    </p>
  );
}

/**
 * The new-campaign form: one draft that each fieldset edits a slice of, the server's estimate of what
 * it would launch, then a confirmation before launching.
 */
export function NewCampaignForm({ vocabulary }: { vocabulary: FormVocabulary }) {
  const uid = useId();
  const [draft, setDraft] = useState<CampaignDraft>(INITIAL_DRAFT);
  const update = useCallback((patch: Partial<CampaignDraft>) => setDraft((d) => ({ ...d, ...patch })), []);
  const { options, loadError } = useFormOptions((o) =>
    setDraft((d) => {
      const first = o.suites[0];
      if (d.suiteDir) return d;
      return first ? { ...d, ...chooseSuite(d, first) } : { ...d, suiteDir: 'fixtures' };
    }),
  );
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const body = useMemo(() => draftBody(draft), [draft]);
  const { estimate, invalid, ready, pending } = useEstimate(body, setErrors);
  const { submitting, confirming, submit, launchNow, stopConfirming } = useLaunch(body, estimate, setErrors);

  if (loadError || !options) return <OptionsPending loadError={loadError} />;

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="New campaign">
      <FormErrors messages={errors.formErrors} />
      <NameField
        uid={uid}
        value={draft.name}
        errors={errors.fieldErrors.name}
        onChange={(v) => {
          update({ name: v });
          setErrors((prev) => withoutFieldError(prev, 'name'));
        }}
      />
      <WhatToRun
        uid={uid}
        options={options}
        draft={draft}
        update={update}
        errors={errors}
        difficulties={vocabulary.difficulties}
        simulatedModelPattern={vocabulary.simulatedModelPattern}
      />
      <RunFields uid={uid} draft={draft} update={update} errors={errors.fieldErrors} />
      <EstimateBar
        estimate={estimate}
        invalid={invalid}
        ready={ready}
        pending={pending}
        trials={body.trials}
        submitting={submitting}
        disabled={submitting || confirming}
      />
      {confirming && estimate ? (
        <LaunchConfirmation
          estimate={estimate}
          trials={body.trials}
          name={body.name}
          busy={submitting}
          onConfirm={() => void launchNow()}
          onBack={stopConfirming}
        />
      ) : null}
    </form>
  );
}
