'use client';

import { FieldError, Fieldset, inputClass, toggle } from './fields';
import { chooseSuite, type CampaignDraft, type DraftUpdate, type Suite } from './draft';

/** The suite, and the domains, difficulties and tags that narrow it. */
export function FixturesFieldset({
  uid,
  suites,
  draft,
  update,
  errors,
  difficultyOrder,
}: {
  uid: string;
  suites: Suite[];
  draft: Pick<CampaignDraft, 'suiteDir' | 'domains' | 'difficulties' | 'tags' | 'outputModes'>;
  update: DraftUpdate;
  errors: string[];
  /** Difficulties in their own order, trivial to expert. */
  difficultyOrder: readonly string[];
}) {
  const suite = suites.find((s) => s.dir === draft.suiteDir);
  const rank = (d: string) => {
    const i = difficultyOrder.indexOf(d);
    return i < 0 ? difficultyOrder.length : i;
  };
  const groups = suite
    ? ([
        ['Domains', 'domains', suite.domains],
        ['Difficulties', 'difficulties', [...suite.difficulties].sort((a, b) => rank(a) - rank(b))],
        ['Tags', 'tags', suite.tags],
      ] as const)
    : [];
  return (
    <Fieldset legend="Fixtures" error={<FieldError id={`${uid}-fx-err`} errors={errors} />}>
      <label className="block text-sm" htmlFor={`${uid}-suite`}>
        Suite
        <select
          id={`${uid}-suite`}
          className={inputClass}
          value={draft.suiteDir}
          onChange={(e) => {
            const chosen = suites.find((s) => s.dir === e.target.value);
            if (chosen) update(chooseSuite(draft, chosen));
          }}
        >
          {suites.map((s) => (
            <option key={s.dir} value={s.dir}>
              {s.dir} (version {s.version})
            </option>
          ))}
        </select>
      </label>
      {suites.length === 0 ? (
        <p className="mt-2 rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-800" role="alert">
          No fixture suite is available to this web app. Set GITBENCH_SUITES to suite directories (relative to
          GITBENCH_ROOT, the repository) and restart it.
        </p>
      ) : (
        <p className="mt-2 text-xs text-slate-500">Leave a group empty to take all of it; groups combine with AND.</p>
      )}
      {groups.map(([label, key, values]) => (
        <fieldset key={label} className="mt-3">
          <legend className="text-xs font-medium text-slate-600">{label}</legend>
          <div className="mt-1 flex max-h-40 flex-wrap gap-x-4 gap-y-1 overflow-auto text-sm">
            {values.map((v) => (
              <label key={v} className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  className="h-4 w-4"
                  checked={draft[key].includes(v)}
                  onChange={() => update({ [key]: toggle(draft[key], v) })}
                />
                {v}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
    </Fieldset>
  );
}
