import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTool, getToolSet, ggbReferenceToolCalls, resolveToolSet, type Fixture } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { loadSuiteDir } from '../../src';
import { hostContext, tempRepo } from '../../../core/test/families/ggb-host-context';

/**
 * Every ICC scenario carries a reference the oracle agent plays with the ggb-icc tools, and playing it
 * commits every change (what the checks before the pairwise judge ask). The four MCR scenarios without
 * one are those no ggb-mcr tool can solve (fixtures/ggb/README.md says why).
 */
const SUITE = join(import.meta.dirname, '../../../../fixtures/ggb');
const fixtures: Fixture[] = (await loadSuiteDir(SUITE)).fixtures;
const icc = fixtures.filter((f) => f.scoring.type === 'ggb_icc');
const scoring = (f: Fixture) => f.scoring as unknown as { target_file: string; final_blob: string };

describe('GitGoodBench references', () => {
  it('exist for every scenario but the four merges whose real resolution edits lines outside the conflicts', () => {
    const without = fixtures.filter((f) => ggbReferenceToolCalls(f) === null).map((f) => `${f.domain}/${f.id}`);
    expect(without).toEqual(['mcr/click-m05', 'mcr/requests-m02', 'mcr/requests-m03', 'mcr/requests-m04']);
  });

  it('of ICC, played with the ggb-icc tools, commit every change of the target file and of the others', async () => {
    expect(icc.length).toBe(27);
    const tools = getToolSet(resolveToolSet(icc[0]!, 'default'));
    for (const f of icc) {
      const { dir, sh } = tempRepo();
      for (const file of f.files ?? []) copyFileSync(join(SUITE, file.asset), join(dir, file.to));
      for (const step of f.setup) sh(step);
      const ctx = hostContext(dir);
      for (const call of ggbReferenceToolCalls(f)!) {
        const tool = findTool(tools, call.name)!;
        const done = await tool.run(tool.args.parse(call.args), ctx);
        expect(done.isError, `${f.id} ${call.name}: ${done.output}`).toBe(false);
      }
      expect(sh(`git rev-parse HEAD:${scoring(f).target_file}`).trim(), f.id).toBe(scoring(f).final_blob);
      expect(sh('git status --porcelain'), f.id).toBe('');
    }
  }, 300_000);
});
