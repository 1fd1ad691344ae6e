import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostRunner } from '../src/step-runner';

// The runner is Python files (runner/*.py), copied into the sandbox image. This lints them the way the
// image will run them: every file compiles, and every name batch.py, session.py and observe.py import from common.py
// is defined there, unused imports aside (python3 -I -S, the standard library only).
const LINT = String.raw`
import ast, sys, os
d = sys.argv[1]
trees = {f: ast.parse(open(os.path.join(d, f)).read(), f) for f in sorted(os.listdir(d)) if f.endswith('.py')}
common = {n.name for n in trees['common.py'].body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
top = trees['common.py'].body
common |= {t.id for n in top if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
common |= {a.asname or a.name for n in top if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
common |= {e.id for n in top if isinstance(n, ast.Assign)
           for t in n.targets if isinstance(t, ast.Tuple) for e in t.elts}
problems = []
for f, tree in trees.items():
    compile(tree, f, 'exec')
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    for n in tree.body:
        if isinstance(n, ast.ImportFrom) and n.module == 'common':
            problems += ['%s imports %s, which common.py does not define' % (f, a.name)
                         for a in n.names if a.name not in common]
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            problems += ['%s imports %s and never uses it' % (f, a.asname or a.name)
                         for a in n.names if (a.asname or a.name).split('.')[0] not in used]
print('\n'.join(problems))
`;

describe('the runner files', () => {
  it('compile, and import nothing that is missing or unused', () => {
    const dir = hostRunner().dir;
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.py'))
        .sort(),
    ).toEqual(['batch.py', 'common.py', 'observe.py', 'repo_memo.py', 'repo_state.py', 'session.py']);
    const r = spawnSync('python3', ['-I', '-S', '-c', LINT, dir], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('');
    expect(path.isAbsolute(dir)).toBe(true);
  });
});
