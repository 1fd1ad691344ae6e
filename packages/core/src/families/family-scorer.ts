import type { Fixture, SuiteAsset } from '../fixtures/types';
import { configError } from '../scoring/result';
import type { Probe, SandboxEvidence, SandboxPlan, Scorer, ScoreResult } from '../scoring/types';
import { stageFiles, stagingDir, type StagedFiles } from './sandbox-staging';

/**
 * What a task family's scorer has in common: its scoring block is parsed into a config (each problem
 * naming its field); a single answer is one bash script run from the repository root (an agent's
 * attempt runs no answer); suite files are staged into the sandbox after the attempt; then the
 * family's own probes run, and the family decides from their records.
 */
export interface FamilyScorerSpec<C> {
  type: string;
  config(fixture: Fixture): { ok: true; config: C } | { ok: false; problems: { field: string; message: string }[] };
  /** Name of the staging directory, and the suite files to put there by file name. */
  staging: string;
  files(config: C): Record<string, SuiteAsset>;
  probes(config: C, staged: StagedFiles, dir: string): Probe[];
  decide(config: C, evidence: SandboxEvidence | undefined): ScoreResult;
}

export function familyScorer<C>(spec: FamilyScorerSpec<C>): Scorer {
  return {
    type: spec.type,
    plan(fixture, output): SandboxPlan {
      const parsed = spec.config(fixture);
      if (!parsed.ok) return { answerCommands: [], probes: [] };
      const dir = stagingDir(spec.staging);
      const staged = stageFiles(spec.staging, dir, spec.files(parsed.config));
      return {
        answerCommands: output.trim() === '' ? [] : [output],
        probes: [...staged.probes, ...spec.probes(parsed.config, staged, dir)],
      };
    },
    score({ fixture, evidence }) {
      const parsed = spec.config(fixture);
      if (!parsed.ok)
        return configError(fixture, parsed.problems.map((p) => `scoring.${p.field}: ${p.message}`).join('; '));
      return spec.decide(parsed.config, evidence);
    },
  };
}
