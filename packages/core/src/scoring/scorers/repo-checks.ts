import { checkProbe, describeCheck, judgeCheck } from '../../families/repo-checks/checks';
import { repoChecksConfig } from '../../families/repo-checks/config';
import { stageFiles, stagingDir } from '../../families/sandbox-staging';
import { check, configError, verdict } from '../result';
import type { Probe, SandboxPlan, ScoreCheck, Scorer } from '../types';

const STAGING = 'checks';
const probeId = (index: number) => `check.${index + 1}`;

/**
 * A repository-checks task (the hard tier): a single answer is one bash script run from the
 * repository root (or, with `run_answer: false`, text that is only read); an agent works in the
 * repository. Afterwards every check of `scoring.checks` runs as its own look-up (families/repo-checks)
 * and all of them must hold: pass when every one does, score = the share that did.
 */
export const repoChecksScorer: Scorer = {
  type: 'repo_checks',
  plan(fixture, output): SandboxPlan {
    const parsed = repoChecksConfig(fixture);
    if (!parsed.ok) return { answerCommands: [], probes: [] };
    const { checks, runAnswer, overlayAssets } = parsed.config;
    const dir = stagingDir(STAGING);
    const names = Object.keys(overlayAssets);
    const stagedName = (asset: string) => `overlay.${names.indexOf(asset)}`;
    const staged = stageFiles(
      STAGING,
      dir,
      Object.fromEntries(names.map((asset) => [stagedName(asset), overlayAssets[asset]!])),
    );
    const probes: Probe[] = [];
    checks.forEach((c, index) => {
      const probe = checkProbe(c, probeId(index), staged, dir, stagedName);
      if (probe) probes.push(probe);
    });
    const usesStage = names.length > 0;
    return {
      answerCommands: runAnswer && output.trim() !== '' ? [output] : [],
      probes: usesStage ? [...staged.probes, ...probes] : probes,
    };
  },
  score({ fixture, output, evidence, repoStateBefore }) {
    const parsed = repoChecksConfig(fixture);
    if (!parsed.ok)
      return configError(fixture, parsed.problems.map((p) => `scoring.${p.field}: ${p.message}`).join('; '));
    const { checks } = parsed.config;
    const results: ScoreCheck[] = [];
    let held = 0;
    checks.forEach((c, index) => {
      const judged = judgeCheck(c, evidence?.probes[probeId(index)], {
        answer: output,
        stateBefore: repoStateBefore,
        stateAfter: evidence?.repoStateAfter,
      });
      if (judged.ok) held++;
      results.push(check(describeCheck(c), judged.ok, judged.detail, undefined, judged.actual));
    });
    return verdict(held === checks.length, held / checks.length, results);
  },
};
