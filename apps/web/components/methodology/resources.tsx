import { H } from './heading';

/** Cost, tokens and time per complete trial, the cost-quality quadrant and the paired comparison. */
export function ResourceSections() {
  return (
    <>
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
    </>
  );
}
