import { describe, expect, it } from 'vitest';
import { parseAttemptEvidence } from '@gitbench/core';
import { listTrajectories } from '@gitbench/db';
import { createCampaign } from '@gitbench/use-cases';
import {
  campaignTestBed,
  deps,
  expectOneOutcomeEach,
  finished,
  loadFixtures,
  TEST_ACTOR,
  UPSTREAM_FIXTURES,
} from './harness';

/**
 * A campaign whose target is a third-party agent with a model, created through the campaign use case
 * (as the API and `gitbench campaign create --agent` do) and run by a real worker process: the target
 * stores its agent, and the attempt runs that agent in its own image through the model gateway, the
 * built-in oracle playing the reference solution through the agent's shell tool.
 *
 * It uses the claude-code image that apps/cli/test/third-party-agents.int.test.ts builds (the tag names
 * the image's content, so both find the same one under GITBENCH_STATE_DIR): when that file ran first the
 * image is there and this costs one attempt; alone, the worker builds it on the attempt's first use.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const bed = campaignTestBed('agenttarget');
const fixtures = await loadFixtures(UPSTREAM_FIXTURES);
// state_assertions: scored on the repository the agent leaves.
const FIXTURE = 'git_clean/f002';

describe('an agent × model target in a campaign', () => {
  it('stores the agent on the target and runs the attempt with that agent, which passes with the oracle', async () => {
    const { queue, name } = bed.newQueue('agent-target');
    const config = {
      name: 'agent target',
      createdBy: 'test',
      models: ['oracle'],
      outputModes: ['agent'],
      agents: ['claude-code'],
      trials: 1,
      fixtures: { suiteDir: 'upstream', ids: [FIXTURE] },
    };
    // An agent the deployment does not run is refused by name before anything is written.
    const refused = await createCampaign(
      { ...deps(bed.t.db, fixtures, queue), agents: ['claude-code', 'codex'] },
      { ...config, agents: ['aider'] },
      TEST_ACTOR,
    );
    expect(!refused.ok && refused.errors.fieldErrors).toEqual({
      'agents.0': ["agents[0]: unknown agent 'aider'. Use one of gitbench, claude-code, codex."],
    });
    const created = await createCampaign(
      { ...deps(bed.t.db, fixtures, queue), agents: ['claude-code', 'codex'] },
      config,
      TEST_ACTOR,
    );
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    const targets = await bed.t.db.campaignTarget.findMany({ where: { campaignId: created.campaignId } });
    expect(targets.map((t) => [t.modelId, t.outputMode, t.agent])).toEqual([['oracle', 'agent', 'claude-code']]);

    await bed.startWorkers(1, name);
    // The first attempt may build the agent's image (an npm install, minutes on a loaded machine).
    await finished(bed.t.db, created.campaignId, bed.workers, 600_000);
    const [attempt] = await expectOneOutcomeEach(bed.t.db, created.campaignId, 1);
    expect(attempt!.status, `${attempt!.errorClass} ${attempt!.errorMessage}`).toBe('VALID_PASS');
    const evidence = parseAttemptEvidence(attempt!.tries[0]!.evidence);
    // The attempt ran in the agent's image, built on the sandbox image, and records it.
    expect(evidence.origin === 'gitbench' && evidence.sandbox?.kind === 'docker' && evidence.sandbox.image).toMatch(
      /^gitbench-agent-claude-code:[0-9a-f]{12}$/,
    );
    const [trajectory] = await listTrajectories(bed.t.db, attempt!.id);
    expect(trajectory?.agent).toMatch(/^claude-code@\d/);
    expect(trajectory?.model).toBe('oracle');
  }, 660_000);
});
