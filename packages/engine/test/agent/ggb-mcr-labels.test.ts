import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentTaskText, getToolSet, viewMergeConflictAtTool, type Fixture } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { loadSuiteDir } from '../../src';
import { hostContext, tempRepo } from '../../../core/test/families/ggb-host-context';

/**
 * An MCR agent reads the same conflict in its prompt and through its tools: one labelling of the
 * markers (HEAD and incoming, as the sandbox's `git merge incoming` writes them), never a commit id in
 * one place and a branch name in the other.
 */
const SUITE = join(import.meta.dirname, '../../../../fixtures/ggb');
const mcr: Fixture[] = (await loadSuiteDir(SUITE)).fixtures.filter((f) => f.scoring.type === 'ggb_mcr');

/** The prompt's `<CONFLICT-i> (file)` blocks, in order. */
function promptBlocks(prompt: string): { file: string; text: string }[] {
  return [...prompt.matchAll(/^<CONFLICT-(\d+)> \((.+)\)\n([\s\S]*?)\n<\/CONFLICT-\1>$/gm)].map((m) => ({
    file: m[2]!,
    text: m[3]!,
  }));
}

/** What the miner wrote beside the scoring keys the scorer reads. */
const mined = (f: Fixture) => f.scoring as unknown as { conflicts: number; source: { rewritten: { theirs: string } } };

const markerLabels = (text: string) => new Set([...text.matchAll(/^(?:<{7}|>{7}) (.*)$/gm)].map((m) => m[1]));

/**
 * The fixture's repository as the sandbox builds it: its files placed, its set-up run (the merge stops on its
 * conflicts).
 */
function built(f: Fixture): string {
  const { dir, sh } = tempRepo();
  for (const file of f.files ?? []) copyFileSync(join(SUITE, file.asset), join(dir, file.to));
  for (const step of f.setup) sh(`${step} >/dev/null 2>&1 || true`);
  return dir;
}

describe('MCR conflict markers', () => {
  it('read the same in the agent prompt as in the tool views, labelled HEAD and incoming', async () => {
    expect(mcr.length).toBeGreaterThanOrEqual(20);
    for (const f of mcr) {
      const blocks = promptBlocks(agentTaskText(f));
      expect(blocks.length, f.id).toBe(mined(f).conflicts);
      expect(markerLabels(blocks.map((b) => b.text).join('\n')), f.id).toEqual(new Set(['HEAD', 'incoming']));
      const ctx = hostContext(built(f));
      for (const [i, block] of blocks.entries()) {
        const view = await viewMergeConflictAtTool.run(
          { conflict_index: i, context_window_size: 0, reason: 'test' },
          ctx,
        );
        const lines = view.output.split('\n');
        expect(lines[0], `${f.id} CONFLICT-${i}`).toMatch(
          new RegExp(`^<CONFLICT-${i}> ${block.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, lines`),
        );
        const shown = lines.slice(1, -1).map((l) => l.replace(/^ *\d+\| /, ''));
        expect(shown.join('\n'), `${f.id} CONFLICT-${i}`).toBe(block.text.replaceAll('\r', ''));
      }
    }
  }, 120_000);

  it('keep the single-answer prompt as it was: the same conflicts, labelled with the incoming commit id', () => {
    for (const f of mcr) {
      const theirs = mined(f).source.rewritten.theirs;
      const single = promptBlocks(f.prompt);
      expect(markerLabels(single.map((b) => b.text).join('\n')), f.id).toEqual(new Set(['HEAD', theirs]));
      expect(
        single.map((b) => ({ ...b, text: b.text.replaceAll(`>>>>>>> ${theirs}`, '>>>>>>> incoming') })),
        f.id,
      ).toEqual(promptBlocks(agentTaskText(f)));
    }
  });

  it('are described by the tools with the same two names', () => {
    for (const tool of getToolSet('ggb-mcr').tools)
      expect(`${tool.name}: ${tool.description}`).not.toMatch(/MERGE_HEAD|theirs|\bours\b/);
    expect(getToolSet('ggb-mcr').tools.find((t) => t.name === 'view_diff_for')!.description).toMatch(/HEAD.*incoming/);
  });
});
