'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { LaunchConfirmation } from '../launch-estimate';
import {
  draftBody,
  errorsUnder,
  INITIAL_DRAFT,
  NO_ERRORS,
  withoutFieldError,
  type CampaignDraft,
  type Errors,
} from './draft';
import { EstimateBar } from './estimate-bar';
import { TextField } from './fields';
import { FixturesFieldset } from './fixtures-fieldset';
import { ModelsFieldset } from './models-fieldset';
import { OutputModesFieldset } from './output-modes-fieldset';
import { useEstimate } from './use-estimate';
import { useFormOptions } from './use-form-options';

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

/**
 * The new-campaign form: one draft that each fieldset edits a slice of, the server's estimate of what
 * it would launch, then a confirmation before launching.
 */
export function NewCampaignForm({ vocabulary }: { vocabulary: FormVocabulary }) {
  const router = useRouter();
  const uid = useId();
  const [draft, setDraft] = useState<CampaignDraft>(INITIAL_DRAFT);
  const update = useCallback((patch: Partial<CampaignDraft>) => setDraft((d) => ({ ...d, ...patch })), []);
  const { options, loadError } = useFormOptions((o) =>
    setDraft((d) => ({ ...d, suiteDir: d.suiteDir || o.suites[0]?.dir || 'fixtures' })),
  );
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [submitting, setSubmitting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const body = useMemo(() => draftBody(draft), [draft]);
  const { estimate, invalid, ready } = useEstimate(body, setErrors);

  // A changed selection changes what would launch: ask again.
  useEffect(() => setConfirming(false), [body]);

  function submit(e: FormEvent) {
    e.preventDefault();
    // Launching spends money and worker time: confirm the numbers first. Without a valid estimate (or a
    // name) the server's answer is what the person needs, beside the fields.
    if (estimate && body.name) setConfirming(true);
    else void launchNow();
  }

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
      const errs = json as Partial<Errors> & { error?: string };
      setErrors({
        formErrors: errs.formErrors ?? (errs.error ? [errs.error] : [`The server answered ${r.status}.`]),
        fieldErrors: errs.fieldErrors ?? {},
      });
    } catch (err) {
      setErrors({ formErrors: [`Could not reach the server: ${(err as Error).message}`], fieldErrors: {} });
    } finally {
      setSubmitting(false);
      setConfirming(false);
    }
  }

  if (loadError)
    return (
      <p className="rounded border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800" role="alert">
        {loadError}
      </p>
    );
  if (!options)
    return (
      <p className="text-sm text-slate-600" role="status">
        Loading the configured models and suites…
      </p>
    );

  const fe = (path: string) => errors.fieldErrors[path];
  const under = (prefix: string) => errorsUnder(errors, prefix);
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="New campaign">
      {errors.formErrors.length > 0 ? (
        <div className="rounded border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800" role="alert">
          {errors.formErrors.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id={`${uid}-name`}
          label="Name"
          value={draft.name}
          errors={fe('name')}
          onChange={(v) => {
            update({ name: v });
            setErrors((prev) => withoutFieldError(prev, 'name'));
          }}
        />
      </div>
      <ModelsFieldset
        uid={uid}
        profiles={options.profiles}
        draft={draft}
        update={update}
        errors={under('models')}
        simulated={new RegExp(vocabulary.simulatedModelPattern)}
      />
      <OutputModesFieldset
        uid={uid}
        draft={draft}
        update={update}
        errors={under('outputModes')}
        agentErrors={under('agent')}
        agents={options.agents}
        agentsErrors={under('agents')}
      />
      <FixturesFieldset
        uid={uid}
        suites={options.suites}
        draft={draft}
        update={update}
        errors={under('fixtures')}
        difficultyOrder={vocabulary.difficulties}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id={`${uid}-trials`}
          label="Trials"
          type="number"
          min={1}
          max={20}
          value={draft.trials}
          errors={fe('trials')}
          onChange={(v) => update({ trials: v })}
        />
        <TextField
          id={`${uid}-seed`}
          label="Seed"
          type="number"
          min={0}
          value={draft.seed}
          errors={fe('seed')}
          onChange={(v) => update({ seed: v })}
        />
        <TextField
          id={`${uid}-judge`}
          label="Judge profile (optional)"
          hint="Needed only for fixtures scored by an LLM judge"
          value={draft.judgeProfile}
          errors={fe('judgeProfile')}
          onChange={(v) => update({ judgeProfile: v })}
        />
      </div>
      <EstimateBar
        estimate={estimate}
        invalid={invalid}
        ready={ready}
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
          onBack={() => setConfirming(false)}
        />
      ) : null}
    </form>
  );
}
