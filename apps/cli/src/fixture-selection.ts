import { DIFFICULTIES, selectFixtures, type Difficulty, type SelectableFixture } from '@gitbench/core';
import { listFlag, UsageError, type ParsedArgs } from './args';

/** `--domain`, `--difficulty`, `--tag`, `--id`: the same selection a campaign takes (empty lists select all). */
export interface SelectionFlags {
  domains: string[];
  difficulties: Difficulty[];
  tags: string[];
  ids: string[];
}

function difficultiesOf(args: ParsedArgs): Difficulty[] {
  return listFlag(args, 'difficulty').map((d) => {
    if (!(DIFFICULTIES as readonly string[]).includes(d))
      throw new UsageError(`--difficulty must be one of ${DIFFICULTIES.join(', ')}, got ${d}`);
    return d as Difficulty;
  });
}

export function selectionFromArgs(args: ParsedArgs): SelectionFlags {
  return {
    domains: listFlag(args, 'domain'),
    difficulties: difficultiesOf(args),
    tags: listFlag(args, 'tag'),
    ids: listFlag(args, 'id'),
  };
}

/**
 * The campaign's selection rules over a loaded suite. An id that names no fixture is a typo to show, not an
 * empty run, and so is a selection that leaves nothing of a suite that has fixtures.
 */
export function selectOrRefuse<F extends SelectableFixture>(
  selection: SelectionFlags,
  suite: { dir: string; fixtures: readonly F[] },
): F[] {
  const { fixtures, unknownIds } = selectFixtures(selection, suite.fixtures);
  if (unknownIds.length > 0) throw new UsageError(`--id: ${suite.dir} has no fixture ${unknownIds.join(', ')}`);
  if (fixtures.length === 0 && suite.fixtures.length > 0)
    throw new UsageError(
      `the selection (--domain, --difficulty, --tag, --id) leaves ` +
        `none of ${suite.dir}'s ${suite.fixtures.length} fixtures`,
    );
  return fixtures;
}
