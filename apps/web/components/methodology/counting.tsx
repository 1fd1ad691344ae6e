import { H } from './heading';

/** What a campaign is and how its attempts become rates, classes and complete campaigns. */
export function CountingSections() {
  return (
    <>
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
    </>
  );
}
