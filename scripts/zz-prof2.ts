import { DockerSandboxDriver } from '@gitbench/sandbox';
import { REPO_STATE_SCRIPT } from '@gitbench/core';
const driver = await new DockerSandboxDriver({ image: process.env.GITBENCH_SANDBOX_IMAGE!, labels: { 'org.gitbench.prof': '1' } }).init();
const box = await driver.create();
for (const [label, cmd] of [['true', 'true'], ['state', REPO_STATE_SCRIPT]] as const) {
  const steps = Array.from({ length: 50 }, (_, i) => ({ id: `s${i}`, command: cmd }));
  await box.runBatch({ groups: [{ stopOnFailure: false, steps: [{ id: 'init', command: 'git init -q r 2>/dev/null; cd r && for i in 1 2 3 4 5; do echo $i > f$i; git add f$i; git -c user.name=a -c user.email=b commit -qm c$i; done' }] }] });
  const t0 = performance.now();
  const r = await box.runBatch({ groups: [{ stopOnFailure: false, steps: steps.map((s) => ({ ...s, cwd: 'r' })) }] });
  const sum = r.groups[0]!.reduce((a, s) => a + s.durationMs, 0);
  console.log(`${label}: 50 steps in ${(performance.now() - t0).toFixed(0)} ms (sum of step durations ${sum} ms)`);
}
await box.destroy(); await driver.close();
