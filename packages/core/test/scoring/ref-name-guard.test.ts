import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AMBIGUOUS_MARK, getScorer, gitCommandRefNames, namesGuard } from '../../src';
import { exec, fixture as makeFixture } from './fixture-factory';

const scratch = mkdtempSync(path.join(tmpdir(), 'gb-refguard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const env = { PATH: '/usr/bin:/bin', HOME: scratch, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** A repository with main at "two" (its parent "base", in $c) and the tag v1 at "two", then `shadow` run in it. */
function repo(shadow: string): string {
  const dir = mkdtempSync(path.join(scratch, 'repo-'));
  const script = [
    'set -e',
    'git init -q -b main',
    'git -c user.name=t -c user.email=t@t commit -q --allow-empty -m base',
    'git -c user.name=t -c user.email=t@t commit -q --allow-empty -m two',
    'git tag v1',
    'c=$(git rev-parse HEAD~1)',
    shadow,
  ].join('\n');
  const run = spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return dir;
}

/** What a git_output command's look-up prints in `dir`, the guard first. */
function lookUp(dir: string, command: string): string {
  const { names, git } = gitCommandRefNames(command.split(' '));
  const script = `${namesGuard(names, git)}\n${command}`;
  return spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8' }).stdout;
}

describe('the ref names a git command reads', () => {
  it('are its revisions and the values of options that take one, never paths, patterns, remotes or formats', () => {
    const cases: [string, string[]][] = [
      ['git log -1 --format=%s main', ['main']],
      ['git log --format=%s main..feature/search-api', ['main', 'feature/search-api']],
      ['git show feature/dunning-letters:invoices/render.py', ['feature/dunning-letters']],
      ['git cat-file -t v1.1.0', ['v1.1.0']],
      ['git describe --tags --exact-match hotfix/csv-quoting', ['hotfix/csv-quoting']],
      ['git tag --points-at main~3', ['main']],
      ['git tag --contains=v1.0 -l v1.1.0', ['v1.0']],
      ['git tag -l --format=%(contents:subject) v1.1.0', []],
      ['git stash show stash@{1}', ['stash']],
      ['git log -1 --format=%s refs/heads/main', ['refs/heads/main']],
      ['git log -1 --format=%s HEAD~1', []],
      ['git ls-remote --tags origin', []],
      ['git -C vendor/ui-kit fetch origin', []],
      ['git ls-files --stage vendor/ui-kit', []],
      ['git status --porcelain', []],
      ['git diff main -- src/main', ['main']],
    ];
    for (const [command, names] of cases) expect(gitCommandRefNames(command.split(' ')).names, command).toEqual(names);
    expect(gitCommandRefNames('git -C .worktrees/pdf log -1 main'.split(' '))).toEqual({
      names: ['main'],
      git: 'git -C .worktrees/pdf',
    });
  });
});

describe('the ref-name guard, in a real repository', { timeout: 60_000 }, () => {
  it('lets a name through that reads as one ref, and the command print what it reads', () => {
    const dir = repo('git branch feature "$c"');
    expect(lookUp(dir, 'git log -1 --format=%s main')).toBe('two\n');
    expect(lookUp(dir, 'git log --format=%s feature..main')).toBe('two\n');
    expect(lookUp(dir, 'git log -1 --format=%s refs/tags/v1')).toBe('two\n');
    // A name that names nothing is the command's to report.
    expect(lookUp(dir, 'git log -1 --format=%s missing')).toBe('');
  });

  const shadows: [string, string, string, RegExp][] = [
    ['refs/main', 'git update-ref refs/main "$c"', 'git log -1 --format=%s main', /^main \?$/],
    ['a file main in the git directory', 'echo "$c" > .git/main', 'git log -1 --format=%s main', /^main \?$/],
    ['a tag named like the branch', 'git tag main "$c"', 'git log -1 --format=%s main', /^main \?$/],
    ['a branch named like the tag', 'git branch v1 "$c"', 'git cat-file -t v1', /^v1 \?$/],
    [
      'a branch refs/heads/main beside the branch',
      'git update-ref refs/heads/refs/heads/main "$c"',
      'git log -1 --format=%s refs/heads/main',
      /^refs\/heads\/main \?$/,
    ],
    [
      'a branch refs/heads/main where the branch is gone',
      'git update-ref refs/heads/refs/heads/main "$c" && git checkout -q --detach && git update-ref -d refs/heads/main',
      'git log -1 --format=%s refs/heads/main',
      /^refs\/heads\/main refs\/heads\/refs\/heads\/main$/,
    ],
    [
      'refs/tags/v1 under refs/heads, the tag deleted',
      'git update-ref refs/heads/refs/tags/v1 "$c" && git tag -d v1 >/dev/null',
      'git log -1 --format=%s refs/tags/v1',
      /^refs\/tags\/v1 refs\/heads\/refs\/tags\/v1$/,
    ],
  ];
  for (const [name, shadow, command, why] of shadows) {
    it(`stops the look-up at ${name}, before the command reads it`, () => {
      const out = lookUp(repo(shadow), command);
      expect(out.startsWith(AMBIGUOUS_MARK), out).toBe(true);
      expect(out.slice(AMBIGUOUS_MARK.length).trim()).toMatch(why);
    });
  }

  it('leaves HEAD to git, which reads the git directory’s own HEAD before a tag named HEAD', () => {
    const dir = repo('git update-ref refs/tags/HEAD "$c"');
    expect(lookUp(dir, 'git log -1 --format=%s HEAD')).toBe('two\n');
  });

  it('runs where the command runs (git -C)', () => {
    const dir = repo(
      'mkdir sub && git -C sub init -q -b main && git -C sub -c user.name=t ' +
        '-c user.email=t@t commit -q --allow-empty -m sub && git -C sub tag main',
    );
    const out = lookUp(dir, 'git -C sub log -1 --format=%s main');
    expect(out).toBe(`${AMBIGUOUS_MARK}main ?\n`);
    expect(lookUp(dir, 'git log -1 --format=%s main')).toBe('two\n');
  });
});

describe('state_assertions’ git_output', () => {
  const fixture = (assertions: unknown[]) =>
    makeFixture({ type: 'state_assertions', expected_state: { assertions } }, 'true', 'tag_management');

  it('guards the names its command gives, and only there', () => {
    const plan = getScorer('state_assertions').plan(
      fixture([
        { type: 'git_output', command: 'git log -1 --format=%s v1.1.0', contains: 'Release' },
        { type: 'git_output', command: 'git status --porcelain', not_contains: 'x' },
      ]),
      'true',
    )!;
    const [tagged, status] = ['assertion-1', 'assertion-2'].map((id) => plan.probes.find((p) => p.id === id)!.command);
    expect(tagged!.split('\n')[0]).toBe("for n in 'v1.1.0'; do");
    expect(tagged!.split('\n').at(-1)).toBe('git log -1 --format=%s v1.1.0');
    expect(status).toBe('git status --porcelain');
  });

  it('fails an assertion whose name is ambiguous, whatever the output would say (not_contains included)', () => {
    const f = fixture([
      { type: 'git_output', command: 'git log -1 --format=%s v1.1.0', contains: 'Release' },
      { type: 'git_output', command: 'git log --format=%s main', not_contains: 'secret' },
    ]);
    const result = getScorer('state_assertions').score({
      fixture: f,
      output: 'true',
      evidence: {
        answer: [],
        probes: {
          'assertion-1': exec('assertion-1', `${AMBIGUOUS_MARK}v1.1.0 ?\nRelease\n`),
          'assertion-2': exec('assertion-2', `${AMBIGUOUS_MARK}main refs/main\n`),
        },
      },
    });
    expect(result.passed).toBe(false);
    expect(result.checks!.slice(1).map((c) => [c.ok, c.detail])).toEqual([
      [false, 'v1.1.0 is ambiguous: it names more than one ref (a ref or a file of the same short name shadows it)'],
      [
        false,
        'main is ambiguous: it reads as refs/main, not as the branch or tag ' +
          'of that name (a ref or a file of the same short name shadows it)',
      ],
    ]);
  });
});
