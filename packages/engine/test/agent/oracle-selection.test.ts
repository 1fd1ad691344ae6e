import { describe, expect, it } from 'vitest';
import { oraclePlan, selectForOracle } from './support/oracle-selection';

const stale = { current: 'b', recorded: 'a' };
const current = { current: 'a', recorded: 'a' };

describe('the oracle-every-fixture plan', () => {
  it('runs every fixture when the fingerprint is stale or when asked, and may record a pass then', () => {
    expect(oraclePlan({}, stale)).toEqual({ keys: null, due: true, mayRecord: true });
    expect(oraclePlan({}, current)).toEqual({ keys: null, due: false, mayRecord: true });
    expect(oraclePlan({ GITBENCH_ORACLE_EVERY_FIXTURE: '1' }, current)).toEqual({
      keys: null,
      due: true,
      mayRecord: true,
    });
    expect(oraclePlan({ GITBENCH_ORACLE_FIXTURES: ' , ' }, current).keys).toBeNull();
  });

  it(
    'checks only the fixtures GITBENCH_ORACLE_FIXTURES names, ' +
      'due even while current, and never records the fingerprint',
    () => {
      for (const fp of [stale, current]) {
        const plan = oraclePlan(
          {
            GITBENCH_ORACLE_FIXTURES: 'recovery/cachetools-r06, history-surgery/more-itertools-h06 ',
            GITBENCH_ORACLE_EVERY_FIXTURE: '1',
          },
          fp,
        );
        expect(plan.due).toBe(true);
        expect(plan.mayRecord).toBe(false);
        expect([...plan.keys!].sort()).toEqual(['history-surgery/more-itertools-h06', 'recovery/cachetools-r06']);
      }
    },
  );

  it('selects the fixtures named and reports names that match none', () => {
    const fixtures = ['recovery/cachetools-r06', 'recovery/click-r01', 'git_grep/f001'];
    const id = (f: string) => f;
    expect(selectForOracle(oraclePlan({}, stale), fixtures, id)).toEqual({ selected: fixtures, unknown: [] });
    const plan = oraclePlan({ GITBENCH_ORACLE_FIXTURES: 'git_grep/f001 recovery/nope recovery/cachetools-r06' }, stale);
    expect(selectForOracle(plan, fixtures, id)).toEqual({
      selected: ['recovery/cachetools-r06', 'git_grep/f001'],
      unknown: ['recovery/nope'],
    });
  });
});
