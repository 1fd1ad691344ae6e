'use client';

import { errorsUnder, type CampaignDraft, type DraftUpdate, type Errors } from './draft';
import { FixturesFieldset } from './fixtures-fieldset';
import { ModelsFieldset } from './models-fieldset';
import { OutputModesFieldset } from './output-modes-fieldset';
import type { FormOptions } from './use-form-options';

/** The campaign's matrix: which models, in which output modes (and by which agents), on which fixtures. */
export function WhatToRun({
  uid,
  options,
  draft,
  update,
  errors,
  difficulties,
  simulatedModelPattern,
}: {
  uid: string;
  options: FormOptions;
  draft: CampaignDraft;
  update: DraftUpdate;
  errors: Errors;
  difficulties: string[];
  simulatedModelPattern: string;
}) {
  const under = (prefix: string) => errorsUnder(errors, prefix);
  const suite = options.suites.find((s) => s.dir === draft.suiteDir);
  return (
    <>
      <ModelsFieldset
        uid={uid}
        profiles={options.profiles}
        draft={draft}
        update={update}
        errors={under('models')}
        simulated={new RegExp(simulatedModelPattern)}
      />
      <OutputModesFieldset
        uid={uid}
        draft={draft}
        suiteModes={suite?.modes}
        suiteMaxTurns={suite?.agentMaxTurns}
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
        difficultyOrder={difficulties}
      />
    </>
  );
}
