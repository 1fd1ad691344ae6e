import { H } from './heading';

/** Measured difficulty, what is reproducible, legacy and simulated results, exports and scorers. */
export function ProvenanceSections() {
  return (
    <>
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
    </>
  );
}
