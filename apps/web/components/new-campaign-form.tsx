'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { MODES } from '@gitbench/core/mode';
import { costText, LaunchConfirmation, timeText, type Estimate } from './launch-estimate';

interface Profile {
  name: string;
  provider: string;
  models: string[];
  note?: string;
}
interface Suite {
  dir: string;
  version: string;
  domains: string[];
  difficulties: string[];
  tags: string[];
}
interface Errors {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
}

const EFFORTS = ['', 'minimal', 'low', 'medium', 'high'];

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

function FieldError({ errors, id }: { errors?: string[]; id: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-xs text-rose-700" role="alert">
      {errors.join(' ')}
    </p>
  );
}

/**
 * A labelled input whose error sits outside the label (so it is not read as part of the field's name)
 * and is tied to the input with aria-describedby.
 */
function TextField({
  id,
  label,
  value,
  onChange,
  errors,
  hint,
  type = 'text',
  min,
  max,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors?: string[];
  hint?: string;
  type?: 'text' | 'number';
  min?: number;
  max?: number;
}) {
  const describedBy = [hint ? `${id}-hint` : null, errors?.length ? `${id}-err` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="text-sm">
      <label className="font-medium" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        min={min}
        max={max}
        className="mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-indigo-500 aria-[invalid=true]:border-rose-400"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!errors?.length}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-err`} errors={errors} />
    </div>
  );
}

function Fieldset({ legend, children, error }: { legend: string; children: ReactNode; error?: ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {children}
      {error}
    </fieldset>
  );
}

function toggle(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

export function NewCampaignForm({ vocabulary }: { vocabulary: FormVocabulary }) {
  const simulated = new RegExp(vocabulary.simulatedModelPattern);
  const difficultyOrder = (d: string) => {
    const i = vocabulary.difficulties.indexOf(d);
    return i < 0 ? vocabulary.difficulties.length : i;
  };
  const router = useRouter();
  const uid = useId();
  const [profiles, setProfiles] = useState<Profile[] | null>(null);
  const [suites, setSuites] = useState<Suite[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [models, setModels] = useState<Record<string, string>>({}); // model id -> effort ('' = none)
  const [extraModels, setExtraModels] = useState('');
  const [outputModes, setOutputModes] = useState<string[]>(['text']);
  // Agent mode: the tool set (`default`: the fixture's own) and the turn limit; other limits keep their defaults.
  const [toolSet, setToolSet] = useState('default');
  const [maxTurns, setMaxTurns] = useState('30');
  const [suiteDir, setSuiteDir] = useState('');
  const [domains, setDomains] = useState<string[]>([]);
  const [difficulties, setDifficulties] = useState<string[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [trials, setTrials] = useState('3');
  const [seed, setSeed] = useState('0');
  const [judgeProfile, setJudgeProfile] = useState('');
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [estimateInvalid, setEstimateInvalid] = useState(false);
  const [errors, setErrors] = useState<Errors>({ formErrors: [], fieldErrors: {} });
  const [submitting, setSubmitting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    fetch('/api/profiles')
      .then(async (r) => {
        if (!r.ok) throw new Error(`the server answered ${r.status}`);
        const body = (await r.json()) as { profiles: Profile[]; suites: Suite[] };
        setProfiles(body.profiles);
        setSuites(body.suites);
        setSuiteDir((d) => d || body.suites[0]?.dir || 'fixtures');
      })
      .catch((e: Error) => setLoadError(`Could not load the configured profiles and suites: ${e.message}.`));
  }, []);

  const suite = suites.find((s) => s.dir === suiteDir);
  const body = useMemo(() => {
    const chosen = Object.entries(models).map(([m, effort]) => (effort ? `${m}#${effort}` : m));
    const extra = extraModels.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
    return {
      name: name.trim(),
      models: [...chosen, ...extra],
      outputModes,
      fixtures: { suiteDir: suiteDir || 'fixtures', domains, difficulties, tags, ids: [] as string[] },
      trials: Number(trials),
      seed: Number(seed),
      ...(judgeProfile.trim() ? { judgeProfile: judgeProfile.trim() } : {}),
      ...(outputModes.includes('agent') ? { agent: { toolSet: toolSet.trim() || 'default', limits: { maxTurns: Number(maxTurns) } } } : {}),
    };
  }, [models, extraModels, name, outputModes, suiteDir, domains, difficulties, tags, trials, seed, judgeProfile, toolSet, maxTurns]);

  // Ask for the size and cost of the campaign whenever the selection changes (debounced).
  useEffect(() => {
    if (body.models.length === 0 || outputModes.length === 0) {
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
        // The name is filled in for the estimate, so its error comes from a launch attempt
        // and stays until the person edits the field.
        const launchOnly = (prev: Errors) => Object.fromEntries(Object.entries(prev.fieldErrors).filter(([k]) => k === 'name'));
        if (r.ok) {
          setEstimate(json as Estimate);
          setEstimateInvalid(false);
          setErrors((prev) => ({ formErrors: [], fieldErrors: launchOnly(prev) }));
        } else {
          setEstimate(null);
          setEstimateInvalid(true);
          const errs = json as Errors;
          setErrors((prev) => ({ formErrors: errs.formErrors ?? [], fieldErrors: { ...launchOnly(prev), ...errs.fieldErrors } }));
        }
      } catch (e) {
        if ((e as Error).name !== 'AbortError') setEstimate(null);
      }
    }, 300);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [body, outputModes.length]);

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
      const r = await fetch('/api/campaigns', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = await r.json().catch(() => ({}));
      if (r.status === 201 || r.ok) {
        router.push(`/campaigns/${(json as { campaignId: string }).campaignId}`);
        return;
      }
      const errs = json as Partial<Errors> & { error?: string };
      setErrors({ formErrors: errs.formErrors ?? (errs.error ? [errs.error] : [`The server answered ${r.status}.`]), fieldErrors: errs.fieldErrors ?? {} });
    } catch (err) {
      setErrors({ formErrors: [`Could not reach the server: ${(err as Error).message}`], fieldErrors: {} });
    } finally {
      setSubmitting(false);
      setConfirming(false);
    }
  }

  const fe = (path: string) => errors.fieldErrors[path];
  const clearFieldError = (path: string) =>
    setErrors((prev) => ({ ...prev, fieldErrors: Object.fromEntries(Object.entries(prev.fieldErrors).filter(([k]) => k !== path)) }));
  const feStartsWith = (prefix: string) =>
    Object.entries(errors.fieldErrors)
      .filter(([k]) => k === prefix || k.startsWith(`${prefix}.`))
      .flatMap(([, v]) => v);
  const input = 'mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-indigo-500';

  if (loadError) return <p className="rounded border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800" role="alert">{loadError}</p>;
  if (!profiles) return <p className="text-sm text-slate-600" role="status">Loading the configured models and suites…</p>;

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
        <TextField id={`${uid}-name`} label="Name" value={name} errors={fe('name')} onChange={(v) => { setName(v); clearFieldError('name'); }} />
      </div>

      <Fieldset legend="Models" error={<FieldError id={`${uid}-models-err`} errors={feStartsWith('models')} />}>
        {profiles.map((p) => (
          <div key={p.name} className="mt-2">
            <p className="text-xs font-medium text-slate-500">
              Profile {p.name} ({p.provider}){p.note ? ` · ${p.note}` : ''}
            </p>
            <ul className="mt-1 space-y-1.5">
              {p.models.map((m) => {
                const checked = m in models;
                return (
                  <li key={m} className="flex min-h-7 flex-wrap items-center gap-2 text-sm">
                    <input
                      id={`${uid}-m-${m}`}
                      type="checkbox"
                      className="h-4 w-4"
                      checked={checked}
                      onChange={() =>
                        setModels((cur) => {
                          const next = { ...cur };
                          if (checked) delete next[m];
                          else next[m] = '';
                          return next;
                        })
                      }
                    />
                    <label htmlFor={`${uid}-m-${m}`}>{m}</label>
                    {simulated.test(m) ? <span className="rounded bg-orange-100 px-1.5 py-0.5 text-xs font-medium text-orange-800">simulated</span> : null}
                    {checked ? (
                      <label className="ml-4 flex items-center gap-1 text-xs text-slate-600">
                        reasoning effort
                        <select
                          value={models[m]}
                          onChange={(e) => setModels((cur) => ({ ...cur, [m]: e.target.value }))}
                          aria-label={`Reasoning effort for ${m}`}
                          className="rounded border border-slate-300 px-1 py-0.5"
                        >
                          {EFFORTS.map((ef) => (
                            <option key={ef} value={ef}>
                              {ef || 'default'}
                            </option>
                          ))}
                        </select>
                      </label>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
        <label className="mt-3 block text-sm" htmlFor={`${uid}-extra`}>
          Other model ids (space or comma separated, <code>model#effort</code> allowed)
          <input id={`${uid}-extra`} className={input} value={extraModels} onChange={(e) => setExtraModels(e.target.value)} />
        </label>
      </Fieldset>

      <Fieldset legend="Output modes" error={<FieldError id={`${uid}-modes-err`} errors={feStartsWith('outputModes')} />}>
        <div className="flex gap-4 text-sm">
          {MODES.map((m) => (
            <label key={m} className="flex items-center gap-2">
              <input type="checkbox" className="h-4 w-4" checked={outputModes.includes(m)} onChange={() => setOutputModes((c) => toggle(c, m))} />
              {m}
            </label>
          ))}
        </div>
        {outputModes.includes('agent') ? (
          <div className="mt-2 flex gap-4 text-sm">
            <label className="block" htmlFor={`${uid}-toolset`}>
              Agent tool set
              <input id={`${uid}-toolset`} className={input} value={toolSet} onChange={(e) => setToolSet(e.target.value)} placeholder="default, bash, editor, bash+editor" />
            </label>
            <label className="block" htmlFor={`${uid}-turns`}>
              Max turns
              <input id={`${uid}-turns`} type="number" min={1} max={500} className={input} value={maxTurns} onChange={(e) => setMaxTurns(e.target.value)} />
            </label>
            <FieldError id={`${uid}-agent-err`} errors={feStartsWith('agent')} />
          </div>
        ) : null}
      </Fieldset>

      <Fieldset legend="Fixtures" error={<FieldError id={`${uid}-fx-err`} errors={feStartsWith('fixtures')} />}>
        <label className="block text-sm" htmlFor={`${uid}-suite`}>
          Suite
          <select id={`${uid}-suite`} className={input} value={suiteDir} onChange={(e) => { setSuiteDir(e.target.value); setDomains([]); setTags([]); }}>
            {suites.map((s) => (
              <option key={s.dir} value={s.dir}>
                {s.dir} (version {s.version})
              </option>
            ))}
          </select>
        </label>
        {suites.length === 0 ? (
          <p className="mt-2 rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-800" role="alert">
            No fixture suite is available to this web app. Set GITBENCH_SUITES to suite directories (relative to GITBENCH_ROOT, the
            repository) and restart it.
          </p>
        ) : (
          <p className="mt-2 text-xs text-slate-500">Leave a group empty to take all of it; groups combine with AND.</p>
        )}
        {suite
          ? ([
              ['Domains', suite.domains, domains, setDomains],
              ['Difficulties', [...suite.difficulties].sort((a, b) => difficultyOrder(a) - difficultyOrder(b)), difficulties, setDifficulties],
              ['Tags', suite.tags, tags, setTags],
            ] as const).map(([label, values, selected, set]) => (
              <fieldset key={label} className="mt-3">
                <legend className="text-xs font-medium text-slate-600">{label}</legend>
                <div className="mt-1 flex max-h-40 flex-wrap gap-x-4 gap-y-1 overflow-auto text-sm">
                  {values.map((v) => (
                    <label key={v} className="flex items-center gap-1.5">
                      <input type="checkbox" className="h-4 w-4" checked={selected.includes(v)} onChange={() => set(toggle([...selected], v))} />
                      {v}
                    </label>
                  ))}
                </div>
              </fieldset>
            ))
          : null}
      </Fieldset>

      <div className="grid gap-4 sm:grid-cols-3">
        <TextField id={`${uid}-trials`} label="Trials" type="number" min={1} max={20} value={trials} errors={fe('trials')} onChange={setTrials} />
        <TextField id={`${uid}-seed`} label="Seed" type="number" min={0} value={seed} errors={fe('seed')} onChange={setSeed} />
        <TextField
          id={`${uid}-judge`}
          label="Judge profile (optional)"
          hint="Needed only for fixtures scored by an LLM judge"
          value={judgeProfile}
          errors={fe('judgeProfile')}
          onChange={setJudgeProfile}
        />
      </div>

      <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4" aria-live="polite" data-testid="estimate">
        <div className="text-sm">
          {estimate ? (
            <>
              <strong className="tabular-nums">{estimate.attempts}</strong> attempts = {estimate.targets} target(s) × {estimate.fixtures} fixture(s) × {body.trials} trial(s) ·
              estimated cost {costText(estimate)} · estimated time <span data-testid="estimate-time">{timeText(estimate)}</span>
              {estimate.costNote ? <span className="block text-xs text-slate-500">{estimate.costNote}</span> : null}
            </>
          ) : estimateInvalid && body.models.length > 0 && outputModes.length > 0 ? (
            <span className="text-rose-700">Correct the fields marked above to see the number of attempts and the cost estimate.</span>
          ) : (
            <span className="text-slate-600">Choose at least one model and one output mode to see the number of attempts and the cost estimate.</span>
          )}
        </div>
        <button type="submit" disabled={submitting || confirming} className="rounded bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-50">
          {submitting ? 'Launching…' : 'Launch campaign'}
        </button>
      </div>
      {confirming && estimate ? (
        <LaunchConfirmation estimate={estimate} trials={body.trials} name={body.name} busy={submitting} onConfirm={() => void launchNow()} onBack={() => setConfirming(false)} />
      ) : null}
    </form>
  );
}
