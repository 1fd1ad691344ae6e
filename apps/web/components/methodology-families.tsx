import Link from 'next/link';
import type { ReactNode } from 'react';
import type { Family } from '@gitbench/core';
import type { FamilySuite } from '@/lib/families/suites';
import { plural } from './format';

/**
 * The methodology page's account of the three task families: each paper's published figures beside
 * what our suite is (its size read from the fixtures), and how the two differ.
 */

function difficulties(s: FamilySuite): string {
  return Object.entries(s.byDifficulty)
    .map(([d, n]) => `${n} ${d}`)
    .join(', ');
}

function Ours({
  suite,
  empty,
  children,
}: {
  suite: FamilySuite | undefined;
  empty: string;
  children: (s: FamilySuite) => ReactNode;
}) {
  if (!suite) return <p className="text-slate-600">{empty}</p>;
  return <>{children(suite)}</>;
}

function PaperVsOurs({ family, paper, ours }: { family: Family; paper: ReactNode; ours: ReactNode }) {
  return (
    <div
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 md:grid-cols-2"
      data-testid={`methodology-${family}`}
    >
      <div>
        <div className="text-xs font-medium uppercase text-slate-500">The paper</div>
        {paper}
      </div>
      <div>
        <div className="text-xs font-medium uppercase text-slate-500">Our suite</div>
        {ours}
      </div>
    </div>
  );
}

/** `linkFamilies` false for an anonymous visitor of the public leaderboard, who may not open the family pages. */
export function MethodologyFamilies({
  suites,
  linkFamilies = true,
}: {
  suites: Map<Family, FamilySuite>;
  linkFamilies?: boolean;
}) {
  const repo = suites.get('repo_task');
  const gist = suites.get('gist');
  const ggb = suites.get('ggb');
  const scenarioCounts = (s: FamilySuite) =>
    (['mcr', 'ir', 'icc'] as const).map((k) => `${s.byScenario[k] ?? 0} ${k.toUpperCase()}`).join(', ');
  const suitesWithVersions = (s: FamilySuite) => s.suites.map((x) => `${x.dir} (version ${x.version})`).join(', ');
  return (
    <>
      <p>
        Three research benchmarks run here as{' '}
        {linkFamilies ? (
          <Link className="text-indigo-700 underline" href="/families">
            task families
          </Link>
        ) : (
          'task families'
        )}
        , in the same campaigns and on the same attempt pages as the Git fixtures, each scored with its paper&apos;s own
        metrics. Every metric is computed by core from the facts the attempt recorded in its sandbox (the grader&apos;s
        verdict, the gist evaluator&apos;s trace, the judge&apos;s verdicts), so a campaign can be re-scored without
        running an agent again. Unlike the papers, every rate here comes with its numerator, denominator and Wilson 95%
        interval, and campaigns can run several trials, which the papers do not report.
      </p>

      <h3 className="pt-2 font-semibold">Repository tasks (GitTaskBench)</h3>
      <PaperVsOurs
        family="repo_task"
        paper={
          <p>
            54 tasks from 18 GitHub repositories across 7 modalities. Best: OpenHands with Claude 3.7,{' '}
            <strong>execution completion 72.22%</strong>, <strong>task pass 48.15%</strong>.
          </p>
        }
        ours={
          <Ours suite={repo} empty="No suite with repository tasks is configured on this server (GITBENCH_SUITES).">
            {(s) => (
              <p>
                <strong data-testid="suite-size-repo_task">{plural(s.fixtures, 'task')}</strong> in{' '}
                {suitesWithVersions(s)}, over {plural(s.domains.length, 'modality', 'modalities')} (
                {s.domains.join(', ')}); {difficulties(s)}.
              </p>
            )}
          </Ours>
        }
      />
      <p>
        How ours differ: the tasks and their graders are written here (the upstream repository has no licence, so
        nothing is taken from it); they run on small, permissively licensed repositories stored under fixtures/,
        offline, with dependencies from Debian packages in the sandbox image, so a task cannot fail for want of a
        download. The grader comes from the task&apos;s definition and is put into the sandbox after the agent stops,
        with a time limit; no output, or a grader that crashes or times out, is Process false and Result false, and such
        a task stays in both denominators. The market values behind alpha are our own estimates, set per task, not the
        paper&apos;s.
      </p>

      <h3 className="pt-2 font-semibold">Gists (Gistify)</h3>
      <PaperVsOurs
        family="gist"
        paper={
          <p>
            25 test instances from each of five large repositories (requests, pylint, flask, scikit-learn, seaborn).
            Best: <strong>execution fidelity about 58–61%</strong> (Claude 4 and GPT-5 in the strongest frameworks).
          </p>
        }
        ours={
          <Ours suite={gist} empty="No suite with gists is configured on this server (GITBENCH_SUITES).">
            {(s) => (
              <p>
                <strong data-testid="suite-size-gist">{plural(s.fixtures, 'gist task')}</strong> in{' '}
                {suitesWithVersions(s)}, on {plural(s.domains.length, 'package')} ({s.domains.join(', ')});{' '}
                {difficulties(s)}.
              </p>
            )}
          </Ours>
        }
      />
      <p>
        How ours differ: the packages are small and pure Python, so a gist is much shorter than one of pylint or
        scikit-learn and our figures are not comparable with the paper&apos;s in level. The three metrics are computed
        as the paper defines them: execution fidelity (the command on the gist gives the original&apos;s outcome and
        output), the line execution rate from a tracer over the gist&apos;s executable lines (a mean over the gists that
        ran), and the line existence rate matched by block (a mean over the gists that parse).
      </p>

      <h3 className="pt-2 font-semibold">GitGoodBench</h3>
      <PaperVsOurs
        family="ggb"
        paper={
          <p>
            GitGoodBench Lite: 120 samples, 60 merge conflicts and 60 file-commit chains, each chain run both as
            interactive rebase and as iterative committing (180 runs). GPT-4o with the paper&apos;s tools:{' '}
            <strong>21.11% solved</strong> overall; <strong>IR 26.67%</strong>, <strong>ICC 23.33%</strong>,{' '}
            <strong>MCR 13.33%</strong>.
          </p>
        }
        ours={
          <Ours
            suite={ggb}
            empty={
              'Our GitGoodBench suite is not on this server yet: no fixture of its ' +
              'scenario types (ggb_mcr, ggb_ir, ggb_icc) is in a configured suite.'
            }
          >
            {(s) => (
              <p>
                <strong data-testid="suite-size-ggb">{plural(s.fixtures, 'scenario')}</strong> in{' '}
                {suitesWithVersions(s)}: {scenarioCounts(s)}; {difficulties(s)}.
              </p>
            )}
          </Ours>
        }
      />
      <p>
        How ours differ: the paper&apos;s data sits on a hub these machines cannot reach, so our Lite suite is mined
        here from the history of permissively licensed repositories, stored as the history each scenario needs, with
        synthetic scenarios of known ground truth beside them. MCR is solved iff nothing is left unmerged and the tree
        equals the real merge commit&apos;s; IR and ICC are solved iff the pairwise judge prefers the agent&apos;s
        history in both orders, and a judge failure leaves the attempt unscored (out of the solve denominator) rather
        than failed. Known defects of the released tools (drifting conflict indexes, stale views, lost CRLF, commit
        messages in shell quotes, <code>fixup -c</code>) are fixed on purpose.
      </p>
    </>
  );
}
