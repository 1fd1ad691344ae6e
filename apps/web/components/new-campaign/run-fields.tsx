'use client';

import type { CampaignDraft, DraftUpdate, Errors } from './draft';
import { TextField } from './fields';

/** How often each fixture runs, the seed that orders the attempts, and the judge for LLM-scored fixtures. */
export function RunFields({
  uid,
  draft,
  update,
  errors,
}: {
  uid: string;
  draft: Pick<CampaignDraft, 'trials' | 'seed' | 'judgeProfile'>;
  update: DraftUpdate;
  errors: Errors['fieldErrors'];
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <TextField
        id={`${uid}-trials`}
        label="Trials"
        type="number"
        min={1}
        max={20}
        value={draft.trials}
        errors={errors.trials}
        onChange={(v) => update({ trials: v })}
      />
      <TextField
        id={`${uid}-seed`}
        label="Seed"
        type="number"
        min={0}
        value={draft.seed}
        errors={errors.seed}
        onChange={(v) => update({ seed: v })}
      />
      <TextField
        id={`${uid}-judge`}
        label="Judge profile (optional)"
        hint="Needed only for fixtures scored by an LLM judge"
        value={draft.judgeProfile}
        errors={errors.judgeProfile}
        onChange={(v) => update({ judgeProfile: v })}
      />
    </div>
  );
}

/** The campaign's name; its error comes from a launch, so editing the field clears it. */
export function NameField({
  uid,
  value,
  errors,
  onChange,
}: {
  uid: string;
  value: string;
  errors: string[] | undefined;
  onChange: (name: string) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField id={`${uid}-name`} label="Name" value={value} errors={errors} onChange={onChange} />
    </div>
  );
}
