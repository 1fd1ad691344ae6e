import type { PairwisePreference } from './judge-reply';

export type PairwiseWinner = 'A' | 'B' | 'tie';

/** The aggregation rule, stored next to every pairwise verdict so a reader knows how it was reached. */
export const PAIRWISE_RULE =
  'Asked twice, A first then B first. A winner is declared only when both orderings prefer the same ' +
  'output; opposite preferences (position bias) or any tie give a tie. If either ordering has no ' +
  'usable reply the comparison is unscored.';

export type PairwiseVerdict =
  | {
      status: 'scored';
      winner: PairwiseWinner;
      /** False when the two orderings disagreed: the judge followed position, not content. */
      consistent: boolean;
      /** Each ordering's preference translated to A/B. */
      orderings: { aFirst: PairwiseWinner; bFirst: PairwiseWinner };
      rule: string;
    }
  | { status: 'unscored'; reason: string; rule: string };

function fromAFirst(p: PairwisePreference): PairwiseWinner {
  return p === 'first' ? 'A' : p === 'second' ? 'B' : 'tie';
}

function fromBFirst(p: PairwisePreference): PairwiseWinner {
  return p === 'first' ? 'B' : p === 'second' ? 'A' : 'tie';
}

export function aggregatePairwise(
  aFirst: PairwisePreference | null,
  bFirst: PairwisePreference | null,
): PairwiseVerdict {
  if (aFirst === null || bFirst === null) {
    const missing =
      aFirst === null && bFirst === null
        ? 'both orderings'
        : aFirst === null
          ? 'the A-first ordering'
          : 'the B-first ordering';
    return { status: 'unscored', reason: `No usable judge reply for ${missing}.`, rule: PAIRWISE_RULE };
  }
  const one = fromAFirst(aFirst);
  const two = fromBFirst(bFirst);
  const winner: PairwiseWinner = one === two ? one : 'tie';
  const consistent = one === two;
  return { status: 'scored', winner, consistent, orderings: { aFirst: one, bFirst: two }, rule: PAIRWISE_RULE };
}
