import { describe, expect, it } from 'vitest';
import { parseRepoState } from '../../src/agent/repo-state';

const out = (sections: Record<string, string>) =>
  Object.entries(sections)
    .map(([name, body]) => `\n@@gb:${name}\n${body}`)
    .join('');

describe('parseRepoState', () => {
  it('reads HEAD, the branch and the counts from porcelain v2 status, conflicts apart', () => {
    const s = parseRepoState(
      out({
        status: [
          '# branch.oid 1111111111111111111111111111111111111111',
          '# branch.head topic',
          '1 M. N... 100644 100644 100644 a a f1',
          '1 .M N... 100644 100644 100644 a a f2',
          '1 MM N... 100644 100644 100644 a a f3',
          '2 R. N... 100644 100644 100644 a a R100 g4\tf4',
          'u UU N... 100644 100644 100644 100644 a b c f5',
          '? new',
        ].join('\n'),
        ops: 'merge\n',
        refs: '1111111111111111111111111111111111111111 refs/heads/topic\n',
        tree: '2222222222222222222222222222222222222222\n',
        diff: '0\n',
      }),
      null,
    );
    expect(s?.state).toMatchObject({
      head: '1111111111111111111111111111111111111111',
      branch: 'topic',
      staged: 3,
      unstaged: 2,
      untracked: 1,
      conflicted: 1,
      operations: ['merge'],
    });
    expect(s?.tree).toBe('2222222222222222222222222222222222222222');
  });

  it('has no HEAD on an unborn branch and no branch when detached', () => {
    const unborn = parseRepoState(out({ status: '# branch.oid (initial)\n# branch.head trunk\n', tree: '\n' }), null);
    expect(unborn?.state).toMatchObject({ head: null, branch: 'trunk' });
    const detached = parseRepoState(
      out({ status: '# branch.oid 3333333333333333333333333333333333333333\n# branch.head (detached)\n' }),
      null,
    );
    expect(detached?.state).toMatchObject({ head: '3333333333333333333333333333333333333333', branch: null });
  });

  it('takes HEAD and the branch read alone when status failed, and null where there is no repository', () => {
    const s = parseRepoState(out({ head: '4444444444444444444444444444444444444444\n', branch: 'main\n' }), null);
    expect(s?.state).toMatchObject({ head: '4444444444444444444444444444444444444444', branch: 'main', staged: 0 });
    expect(parseRepoState(out({ nogit: '' }), null)).toBeNull();
  });
});
