'use client';

import { FieldError, Fieldset, inputClass } from './fields';
import type { CampaignDraft, DraftUpdate, Profile } from './draft';

const EFFORTS = ['', 'minimal', 'low', 'medium', 'high'];

/** Each configured profile's models to tick, each with its reasoning effort, and other model ids typed in. */
export function ModelsFieldset({
  uid,
  profiles,
  draft,
  update,
  errors,
  simulated,
}: {
  uid: string;
  profiles: Profile[];
  draft: Pick<CampaignDraft, 'models' | 'extraModels'>;
  update: DraftUpdate;
  errors: string[];
  simulated: RegExp;
}) {
  const { models } = draft;
  const setModels = (next: Record<string, string>) => update({ models: next });
  return (
    <Fieldset legend="Models" error={<FieldError id={`${uid}-models-err`} errors={errors} />}>
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
                    onChange={() => {
                      const next = { ...models };
                      if (checked) delete next[m];
                      else next[m] = '';
                      setModels(next);
                    }}
                  />
                  <label htmlFor={`${uid}-m-${m}`}>{m}</label>
                  {simulated.test(m) ? (
                    <span className="rounded bg-orange-100 px-1.5 py-0.5 text-xs font-medium text-orange-800">
                      simulated
                    </span>
                  ) : null}
                  {checked ? (
                    <label className="ml-4 flex items-center gap-1 text-xs text-slate-600">
                      reasoning effort
                      <select
                        value={models[m]}
                        onChange={(e) => setModels({ ...models, [m]: e.target.value })}
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
        <input
          id={`${uid}-extra`}
          className={inputClass}
          value={draft.extraModels}
          onChange={(e) => update({ extraModels: e.target.value })}
        />
      </label>
    </Fieldset>
  );
}
