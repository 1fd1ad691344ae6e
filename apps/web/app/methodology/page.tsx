import Link from 'next/link';
import {
  AGENT_EXIT_STATUSES,
  describeExitStatus,
  exitStatusIsCounted,
  exitStatusIsLimit,
  exitStatusIsScored,
} from '@gitbench/core';
import { MethodologyFamilies } from '@/components/methodology-families';
import { requirePublicPage } from '@/lib/auth/guard';
import { familySuites } from '@/lib/families/suites';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Methodology · GitBench' };

function H({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="pt-4 text-lg font-semibold">
      {children}
    </h2>
  );
}

export default async function MethodologyPage() {
  const actor = await requirePublicPage();
  const suites = await familySuites();
  return (
    <article className="max-w-3xl space-y-3 text-sm leading-6 text-slate-800">
      <h1 className="text-2xl font-semibold">How GitBench counts</h1>
      <p>
        A <strong>campaign</strong> runs every chosen target (a model, its reasoning effort and an output mode) on every
        chosen fixture, once per
        <strong> trial</strong>. One run of one target on one fixture in one trial is an <strong>attempt</strong>. Every
        attempt runs in its own throw-away sandbox built from the same deterministic repository, and everything it did
        is kept, so each number below can be followed down to the attempts behind it.
      </p>

      <H id="outcomes">What counts as evidence</H>
      <p>
        An attempt ends as a <em>valid pass</em>, a <em>valid fail</em>, or one of several <em>exclusions</em>. Only
        valid passes and valid fails say something about the model, so only they enter the denominators. An answer the
        model formatted wrongly (unparseable JSON, a schema violation) is a valid fail: the model gave an unusable
        answer. A dropped connection, a provider that kept refusing after our retries, a fixture whose repository did
        not hash as planned, or a judge that could not reach a verdict are exclusions: they are not the model&apos;s
        fault, they are not counted for or against it, and they leave the campaign incomplete until retried.
      </p>

      <H id="mean-success">Mean one-attempt success</H>
      <p>
        Passing valid attempts divided by valid attempts. Read it as &ldquo;the chance one attempt succeeds&rdquo;. We
        always print the two counts next to the percentage (for example 41/60) and draw a bar for the{' '}
        <strong>Wilson 95% interval</strong>, which stays sensible for small counts and near 0% or 100%. Wide bars mean
        little evidence.
      </p>
      <p id="ranking">
        The leaderboard <strong>ranks by the interval&apos;s lower bound</strong>, not by the mean: 3 passes of 3
        attempts (bound 44%) ranks below 90 of 96 (bound 87%), since three lucky attempts are not evidence of a better
        model. Ties go to the higher mean, then to more attempts. Each{' '}
        <strong>suite version is ranked on its own</strong>: a row sums only campaigns of one suite, because a rate over
        different fixture sets is not one figure; choose &ldquo;All pooled&rdquo; under Suite version to sum them
        anyway. A campaign of one trial has one attempt per fixture, so its fixtures read <strong>single trial</strong>,
        never stable or flaky.
      </p>

      <H id="pass-any">pass_any_at_n</H>
      <p>
        For each fixture series (one fixture, one target, one campaign), did it pass at least once in its first n valid
        attempts? pass_any@n is the share of series for which the answer is yes, among those with at least n valid
        attempts. It answers a different question from mean success (&ldquo;would retrying help?&rdquo;) and is never
        the same number: a target at 50% mean success can have pass_any@3 anywhere from 50% to 100%.
      </p>

      <H id="stability">Stable, flaky, unknown</H>
      <p>
        A series is <strong>stable pass</strong> when every valid attempt passed, <strong>stable fail</strong> when
        every valid attempt failed, <strong>flaky</strong> when it has both, and <strong>unknown</strong> when it has no
        valid attempt at all. When some trials were excluded the class rests on fewer attempts than planned, and the
        fixture table says &ldquo;partial&rdquo;.
      </p>

      <H id="completeness">Complete campaigns</H>
      <p>A campaign is complete when all three parts hold:</p>
      <ol className="list-decimal space-y-1 pl-6">
        <li>Target attempts: every planned attempt exists and ended as a valid pass or fail.</li>
        <li>Judge scoring: no attempt is left unscored because the judge was exhausted.</li>
        <li>Safety review: the review is not configured or approved, and no output was blocked.</li>
      </ol>
      <p>
        Incomplete campaigns stay fully browsable, but the leaderboard, quadrant and comparisons leave them out unless
        you tick &ldquo;Include incomplete campaigns&rdquo;.
      </p>

      <H id="resources">Cost, tokens and time</H>
      <p>
        A <strong>trial round</strong> is everything one target did in one trial of one campaign: its attempts on every
        selected fixture (within the domain or difficulty you filtered on). A round is <strong>complete</strong> when
        every one of those attempts has a valid outcome. For rankings we report the mean{' '}
        <strong>per complete trial</strong>: what the complete rounds cost, divided by how many there are, so campaigns
        with 1 or 10 trials, finished or not, compare fairly; a round with an excluded attempt is left out rather than
        counted short. The totals over every attempt, failed ones included (they were paid for too), are shown
        underneath as operational context, and the leaderboard says how many of the rounds were complete.
      </p>
      <p>
        <strong>API time</strong> adds up the time spent waiting on the provider across attempts, which ran in parallel,
        so it is not the campaign&apos;s duration; the <strong>wall clock</strong> (from the first attempt starting to
        the campaign finishing) is shown separately on the campaign pages. A cost we do not know is shown as
        &ldquo;—&rdquo;, never as $0; when only some attempts have a price the figure is marked &ldquo;partial&rdquo; (a
        lower bound), and prices taken from our price table rather than from the provider are marked &ldquo;est.&rdquo;.
        The built-in models (oracle, mock, simulated) make no paid call, so their cost is unknown, not zero.
      </p>

      <H id="quadrant">Cost vs quality</H>
      <p>
        Each target is a point: a resource per complete trial across, mean success up, with its interval. The medians
        split the plane into four: cheaper and better, costlier and better, cheaper and worse, costlier and worse.
        Targets with an unknown resource are listed, not drawn at 0.
      </p>

      <H id="compare">Comparing two targets</H>
      <p>
        On the fixtures both targets ran, each side gets one outcome per fixture: the majority of its valid attempts (an
        even split is left out and counted). The exact McNemar test then asks whether the fixtures only A passed and
        those only B passed are too unbalanced to be chance. One pair per fixture, not per attempt: trials of the same
        fixture are not independent, and counting them separately would overstate significance.
      </p>

      <H id="agents">Agents: steps, exit statuses, solved fixtures</H>
      <p>
        In agent mode a target works in the attempt's sandbox through tools for many turns. A <strong>step</strong> is
        one turn: one answer of the model and the tool calls it made, with their outputs and the repository as read
        after them. An attempt&apos;s step count, and a target&apos;s mean and maximum over its attempts, are read from
        the trajectory of each attempt&apos;s latest try, as its verdict is.
      </p>
      <p>
        Every loop ends with one <strong>exit status</strong>. Scored: the fixture&apos;s scorer judges what the agent
        left, the repository or its submitted answer. Counted: the attempt enters mean success like any other; the ones
        not counted are infrastructure, excluded and retried as a single answer&apos;s would be. Tampering is counted
        without being scored, so it is a failure.
      </p>
      <table className="w-full text-left text-xs" data-testid="methodology-exit-statuses">
        <thead className="text-slate-500">
          <tr>
            <th className="py-1 pr-2 font-medium">Exit status</th>
            <th className="py-1 pr-2 font-medium">When</th>
            <th className="py-1 pr-2 font-medium">Scored</th>
            <th className="py-1 pr-2 font-medium">Counted</th>
          </tr>
        </thead>
        <tbody>
          {AGENT_EXIT_STATUSES.map((s) => (
            <tr key={s} className="border-t border-slate-100 align-top">
              <td className="py-1 pr-2 font-mono">{s}</td>
              <td className="py-1 pr-2">
                {describeExitStatus(s)}
                {exitStatusIsLimit(s) ? ' (a limit)' : ''}
              </td>
              <td className="py-1 pr-2">{exitStatusIsScored(s) ? 'yes' : 'no'}</td>
              <td className="py-1 pr-2">{exitStatusIsCounted(s) ? 'yes' : 'no (excluded)'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        A target&apos;s <strong>solved fixtures</strong> are the distinct fixtures where at least one of its attempts
        passed, over the distinct fixtures it tried. <strong>Cost per solved fixture</strong> is the cost of all its
        attempts (each attempt&apos;s sum over its model calls) divided by its solved fixtures: unknown when any
        attempt&apos;s cost is, and shown as none when nothing was solved. Judge calls are never part of a target&apos;s
        cost.
      </p>

      <H id="item-analysis">Measured difficulty (item analysis)</H>
      <p>
        A suite&apos;s page measures each fixture over every target of every campaign that ran the suite, counting only
        scored attempts. Its
        <strong> pass rate</strong> is passed over scored attempts. Its <strong>discrimination</strong> is the
        point-biserial correlation between a target&apos;s pass fraction on the fixture and its rest score, the mean of
        its pass fractions on the suite&apos;s other fixtures (leaving the fixture out, so it is not correlated with
        itself): near 1, strong targets pass it and weak ones fail; near 0 or below, it carries no signal. It is
        undefined with fewer than two targets or when either side does not vary, and with two targets it can only be 1
        or -1, so read it with the number of targets beside it. A fixture is <strong>saturated</strong> when every
        scored attempt passed, <strong>unsolved</strong> when none did and <strong>flaky</strong> when a target both
        passed and failed it. The built-in controls (oracle, mock, nop, simulated) are left out unless asked for: they
        pass or fail by construction. People (human baselines, <code>gitbench human</code>) are shown beside each
        fixture, who passed it of who tried, and never counted as targets: the figures describe how a fixture separates
        models and agents, and a person&apos;s few attempts would enter them with a rest score over a handful of
        fixtures.
      </p>

      <H id="reproducibility">What is and is not reproducible</H>
      <p>
        The fixture side is deterministic: fixed identities, timestamps, locale and time zone, and every attempt records
        hashes of its fixture input, rendered prompt, expected output, request and scorer configuration. The model side
        is not: providers route requests differently, retry, and sample. We record the route and retries we can see, but
        treat every rate as an estimate of one-attempt reliability.
      </p>
      <p>
        Every campaign records the GitBench version that created it and every attempt the version of the worker that ran
        it: the commit, and whether that working tree had uncommitted changes (then the commit alone does not say what
        ran). A build without its git history names its version when it is built. Imported results keep the commit of
        the upstream harness that produced them.
      </p>

      <H id="legacy">Legacy campaigns</H>
      <p>
        Result files from before campaigns existed are imported as one-trial <strong>legacy</strong> campaigns. Their
        pass rates are shown, but a single trial says nothing about stability, so no stable/flaky class and no
        pass_any@n is claimed for them, and they are left out of rankings unless you ask for them.
      </p>

      <H id="simulated">Simulated results</H>
      <p>
        The built-in <strong>simulated</strong> model is a seeded coin, not a model: for each fixture and trial it gives
        the expected answer with a probability set by the fixture&apos;s difficulty, and a fixed wrong answer otherwise.
        It exists to show what flaky fixtures and pass_any_at_n look like without calling anyone. Its results are marked
        as <em>simulated</em> on every page and say nothing about any model. The <strong>oracle</strong> (always the
        expected answer) and <strong>mock</strong> (always the same wrong answer) check that the scorers accept correct
        answers and reject wrong ones.
      </p>

      <H id="exports">Exports</H>
      <p>
        The leaderboard exports its rows, with every numerator, denominator and interval, as CSV or JSON (with the
        current filters); each campaign exports every attempt with its hashes, tokens, cost and timings. Unknown values
        stay empty, never 0.
      </p>

      <H id="scoring">Scoring</H>
      <p>
        Each fixture names a scorer: exact or fuzzy text comparison (a similarity threshold, typically 80–90%), set and
        number comparisons, or checks that run in the attempt&apos;s sandbox and inspect the repository afterwards. The
        attempt page lists every check the scorer made, what it expected and what it found. Similarity is an
        approximation: a correct answer phrased differently can score low.
      </p>
      <H id="families">Task families and their papers</H>
      <MethodologyFamilies suites={suites} linkFamilies={actor !== null} />
      <p className="pt-4">
        <Link className="text-indigo-700 underline" href="/">
          Back to the leaderboard
        </Link>
      </p>
    </article>
  );
}
