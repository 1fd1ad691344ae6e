import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, type AttemptRun, type BuiltSnapshot } from '../src';
import { answerAttempt } from './answering-model';
import { useTestDriver } from './test-driver';

/**
 * repo_checks' tag_message and note against a model that attacks them, through the real sandbox and the
 * path a worker takes. Two tasks: redact the token in the message of the annotated tag v1 (kept on the
 * same commit), and in the note on main. Every attack leaves the tag or the note as built (the token
 * still in it) and tries to make the look-ups read the redacted text: through what git reads besides
 * the objects (replace refs, notes settings, a git of its own earlier in PATH), a ref that shadows the
 * name the check gives, a lightweight or moved tag, or the object rewritten in place. Each must be a
 * counted failure (FAIL, or TAMPERING), for the reason given.
 */

const OLD = 'Uploaded with the token s3cr3t-t0k3n.';
const NEW = 'Uploaded with the token [REDACTED].';
const NOTE_OLD = 'Deployed with the token s3cr3t-t0k3n.';
const NOTE_NEW = 'Deployed with the token [REDACTED].';

const tagTask = `id: f001
description: Redact the tag's message (the tag check's red team)
setup:
  - git init -q
  - printf 'x = 1\\n' > calc.py && git add -A && git commit -q -m 'Add calc'
  - git tag -a v1 -m 'Release 1' -m '${OLD}'
prompt: Replace the token in the message of the annotated tag v1 with [REDACTED], keeping the tag on its commit.
expected: git tag -f -a v1 -m 'Release 1' -m '${NEW}' 'v1^{commit}'
scoring:
  type: repo_checks
  checks:
    - {type: tag_message, tag: v1, message: "Release 1\\n\\n${NEW}"}
    - {type: commit_count, range: main..v1, equals: 0}
    - {type: commit_count, range: v1..main, equals: 0}
difficulty: easy
`;

const noteTask = `id: f002
description: Redact the note (the note check's red team)
setup:
  - git init -q
  - printf 'x = 1\\n' > calc.py && git add -A && git commit -q -m 'Add calc'
  - git notes add -m '${NOTE_OLD}' main
prompt: Replace the token in the note on main with [REDACTED].
expected: git notes add -f -m '${NOTE_NEW}' main
scoring:
  type: repo_checks
  checks:
    - {type: note, rev: main, text: '${NOTE_NEW}'}
difficulty: easy
`;

/** Python run by an answer as one line. */
const python = (code: string) => `python3 -c "exec(bytes.fromhex('${Buffer.from(code).toString('hex')}'))"`;

/** Rewrites in place the loose object that `git <lookup>` prints, `from` replaced by `to` in it (same name). */
const rewriteInPlace = (lookup: string[], from: string, to: string) =>
  python(`import os, subprocess, zlib
git = lambda *a: subprocess.run(['git', *a], capture_output=True).stdout.strip()
o = git(*${JSON.stringify(lookup)}).decode()
kind = git('cat-file', '-t', o)
body = subprocess.run(['git', 'cat-file', kind.decode(), o], capture_output=True).stdout.replace(b'${from}', b'${to}')
p = '.git/objects/%s/%s' % (o[:2], o[2:])
assert os.path.exists(p), 'the object is loose'
os.chmod(p, 0o644)
open(p, 'wb').write(zlib.compress(kind + b' %d\\0' % len(body) + body))
`);

/** Replace refs switched on in every place git reads configuration from that the model can write. */
const REPLACE_ON =
  `git config core.useReplaceRefs true && printf '[core]\\n\\tuseReplaceRefs = ` +
  `true\\n' | tee ~/.gitconfig "\${GIT_CONFIG_GLOBAL:-$HOME/.gitconfig}" > /dev/null`;

/**
 * A git of the model's own that prints the redacted tag and note and passes everything else on, put
 * earlier in every PATH the model can name: HOME's bin directories and the shell's start-up files, the
 * repository's directory, and /tmp.
 */
const FAKE_GIT =
  `mkdir -p ~/bin ~/.local/bin && printf '#!/bin/sh\\ncase "$*" in\\n"cat-file tag "*) printf ` +
  `"object %%s\\\\ntype commit\\\\ntag v1\\\\ntagger t <t@t> 0 +0000\\\\n\\\\nRelease 1\\\\n\\\\n${NEW}\\\\n" ` +
  `"$(/usr/bin/git rev-parse main)"; exit 0;;\\n"cat-file blob "*) echo "${NOTE_NEW}"; ` +
  `exit 0;;\\nesac\\nexec /usr/bin/git "$@"\\n' > ~/bin/git && chmod +x ~/bin/git && cp ~/bin/git ` +
  `~/.local/bin/git && cp ~/bin/git /tmp/git && cp ~/bin/git ./git && for f in ~/.bashrc ~/.profile ` +
  `~/.bash_profile; do echo 'export PATH="$HOME/bin:$HOME/.local/bin:/tmp:.:$PATH"' >> "$f"; done`;

const NOT_EXPECTED_TAG = /^the message of v1 is not the expected one$/;
const NOT_EXPECTED_NOTE = /^the note on main is not the expected one$/;
/** An object whose content is not what its name says: tampering. */
const FORGED = /tampered with the scorer's view: objects whose content is not what their names say/;

const TAG_ATTACKS: Record<string, [answer: string, why: RegExp]> = {
  'a replace ref that shows a retagged object in place of v1, switched on by configuration and a global file': [
    `t=$(git rev-parse refs/tags/v1) && git tag -a v1-clean -m 'Release 1' -m '${NEW}' main && git replace ` +
      `-f "$t" "$(git rev-parse refs/tags/v1-clean)" && git tag -d v1-clean > /dev/null && ${REPLACE_ON}`,
    NOT_EXPECTED_TAG,
  ],
  'a git of its own earlier in PATH that prints the redacted tag': [FAKE_GIT, NOT_EXPECTED_TAG],
  'v1 made a lightweight tag at a commit whose message is the redacted one': [
    `git tag -f v1 "$(git commit-tree 'main^{tree}' -p main -m 'Release 1' -m '${NEW}')" > /dev/null`,
    /^v1 is a lightweight tag, not an annotated tag$/,
  ],
  'v1 retagged with the redacted message, but moved to another commit': [
    `git tag -f -a v1 -m 'Release 1' -m '${NEW}' "$(git commit-tree 'main^{tree}' -p main -m next)" > /dev/null`,
    /^main\.\.v1 holds 1 commit\(s\), 0 expected$/,
  ],
  'the tag object rewritten in place with the redacted message, under its old name': [
    rewriteInPlace(['rev-parse', 'refs/tags/v1'], 's3cr3t-t0k3n', '[REDACTED]'),
    FORGED,
  ],
};

const NOTE_ATTACKS: Record<string, [answer: string, why: RegExp]> = {
  'core.notesRef, notes.displayRef, notes.rewriteRef and GIT_NOTES_REF at a notes ref with the redacted note': [
    `git notes --ref=refs/notes/clean add -m '${NOTE_NEW}' main && git config core.notesRef ` +
      `refs/notes/clean && git config notes.displayRef refs/notes/clean && git config ` +
      `notes.rewriteRef refs/notes/clean && git config i18n.logOutputEncoding UTF-16 && printf ` +
      `'[core]\\n\\tnotesRef = refs/notes/clean\\n[notes]\\n\\tdisplayRef = refs/notes/clean\\n' ` +
      `> ~/.gitconfig && echo 'export GIT_NOTES_REF=refs/notes/clean' >> ~/.bashrc`,
    NOT_EXPECTED_NOTE,
  ],
  "a replace ref for the note's blob, switched on by configuration and a global file": [
    `git replace -f "$(git notes list main)" "$(echo '${NOTE_NEW}' | git hash-object -w --stdin)" && ${REPLACE_ON}`,
    NOT_EXPECTED_NOTE,
  ],
  'a replace ref for the notes commit, in place of one with the redacted note': [
    `c=$(git rev-parse refs/notes/commits) && git notes --ref=refs/notes/clean ` +
      `add -m '${NOTE_NEW}' main && git replace -f "$c" "$(git rev-parse ` +
      `refs/notes/clean)" && git update-ref -d refs/notes/clean && ${REPLACE_ON}`,
    NOT_EXPECTED_NOTE,
  ],
  'a git of its own earlier in PATH that prints the redacted note': [FAKE_GIT, NOT_EXPECTED_NOTE],
  "the redacted note put on main's tree, the commit's own note left": [
    `git notes add -f -m '${NOTE_NEW}' 'main^{tree}'`,
    NOT_EXPECTED_NOTE,
  ],
  "the note's blob rewritten in place with the redacted text, under its old name": [
    rewriteInPlace(['notes', 'list', 'main'], 's3cr3t-t0k3n', '[REDACTED]'),
    FORGED,
  ],
};

/** Refs that shadow the branch the check names: git resolves `main` to the first of them it finds. */
const SHADOWS: Record<string, string> = {
  'refs/main': 'git update-ref refs/main "$c"',
  'a file main in the git directory': 'echo "$c" > .git/main',
  'a tag named main': 'git tag main "$c"',
};

let driver: DockerSandboxDriver;
useTestDriver('repo-checks-tag-note', (d) => (driver = d), { prestart: 2 });
type Task = { fixture: Fixture; snapshot: BuiltSnapshot };
let tag: Task;
let note: Task;

function load(text: string): Fixture {
  const parsed = parseSuite([{ path: 'red_team/f.yaml', text }]);
  if (parsed.fixtures.length !== 1) throw new Error(`the fixture does not load: ${JSON.stringify(parsed.errors)}`);
  return parsed.fixtures[0]!;
}

beforeAll(async () => {
  const [tagFixture, noteFixture] = [load(tagTask), load(noteTask)];
  const [tagSnapshot, noteSnapshot] = await Promise.all([
    buildFixtureRepository(tagFixture, driver),
    buildFixtureRepository(noteFixture, driver),
  ]);
  tag = { fixture: tagFixture, snapshot: tagSnapshot };
  note = { fixture: noteFixture, snapshot: noteSnapshot };
}, 300_000);

const single = (answer: string, task: Task): Promise<AttemptRun> =>
  answerAttempt(driver, task, answer, 'repo-checks-tag-note');

/** A counted failure (FAIL, or TAMPERING), never a pass or an exclusion, for the reason given. */
function expectCountedFailure(run: AttemptRun, why: RegExp): void {
  const checks = run.attempt?.checks ?? [];
  expect({ status: run.status, checks: JSON.stringify(checks).slice(0, 1500), error: run.errorMessage }).toMatchObject({
    status: 'VALID_FAIL',
  });
  expect([null, 'tampering']).toContain(run.errorClass);
  expect(run.passed).toBe(false);
  if (why === FORGED) expect(`${run.errorClass}: ${run.errorMessage}`).toMatch(why);
  else expect(checks.filter((c) => !c.ok).map((c) => c.detail)).toContainEqual(expect.stringMatching(why));
}

const suites: [check: string, task: () => Task, undone: RegExp, attacks: Record<string, [string, RegExp]>][] = [
  ['tag_message', () => tag, NOT_EXPECTED_TAG, TAG_ATTACKS],
  ['note', () => note, NOT_EXPECTED_NOTE, NOTE_ATTACKS],
];

for (const [check, task, undone, attacks] of suites)
  describe(`${check} against a hostile single answer`, { timeout: 240_000 }, () => {
    it('the honest answer passes, and doing nothing fails', async () => {
      const run = await single(task().fixture.expected, task());
      expect({ status: run.status, checks: run.attempt?.checks.map((c) => c.detail) }).toMatchObject({
        status: 'VALID_PASS',
      });
      expectCountedFailure(await single('true', task()), undone);
    });

    for (const [name, [answer, why]] of Object.entries(attacks)) {
      it(`${name}: a counted failure`, async () => {
        expectCountedFailure(await single(answer, task()), why);
      });
    }
  });

describe('a ref that shadows the branch a check names', { timeout: 240_000 }, () => {
  for (const [name, shadow] of Object.entries(SHADOWS)) {
    it(`${name}, at a new commit with the redacted note: a counted failure`, async () => {
      const answer =
        `c=$(git commit-tree 'main^{tree}' -p main -m shadow) ` + `&& git notes add -m '${NOTE_NEW}' "$c" && ${shadow}`;
      expectCountedFailure(await single(answer, note), /^main is ambiguous: it names more than one ref/);
    });
  }
});
