"""The session runner's answer to a read of an unchanged repository (packages/sandbox/runner/repo_memo.py):
after every change an agent's step can make, the read through the memo prints what a full read prints,
byte for byte, and a read of an unchanged repository is answered without git. Run on the host (the local
driver's runner: no sandbox uid)."""
import mmap
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'runner'))
import common  # noqa: E402 (after the runner's directory is put on the path)
import repo_memo  # noqa: E402
import repo_state  # noqa: E402

# The look-ups' environment (packages/core/src/scoring/lookup-environment.ts), the parts the memo asks for.
LOOKUP = {'PATH': '/usr/bin:/bin', 'HOME': '/nonexistent/gitbench-lookup',
          'XDG_CONFIG_HOME': '/nonexistent/gitbench-lookup',
          'GIT_CONFIG_NOSYSTEM': '1', 'GIT_CONFIG_GLOBAL': '/dev/null', 'GIT_ATTR_NOSYSTEM': '1',
          'GIT_NO_REPLACE_OBJECTS': '1', 'GIT_GRAFT_FILE': '/nonexistent/gitbench-lookup/grafts',
          'GIT_CONFIG_COUNT': '5', 'GIT_CONFIG_KEY_0': 'core.hooksPath', 'GIT_CONFIG_VALUE_0': '/dev/null',
          'GIT_CONFIG_KEY_1': 'core.fsmonitor', 'GIT_CONFIG_VALUE_1': 'false',
          'GIT_CONFIG_KEY_2': 'core.attributesFile', 'GIT_CONFIG_VALUE_2': '/dev/null',
          'GIT_CONFIG_KEY_3': 'core.excludesFile', 'GIT_CONFIG_VALUE_3': '/dev/null',
          'GIT_CONFIG_KEY_4': 'core.untrackedCache', 'GIT_CONFIG_VALUE_4': 'false'}
AUTHOR = {'GIT_AUTHOR_NAME': 'a', 'GIT_AUTHOR_EMAIL': 'a@b', 'GIT_COMMITTER_NAME': 'a', 'GIT_COMMITTER_EMAIL': 'a@b'}


class Session:
    """A repository, a memo as the session runner holds it, and the engine's previous tree."""

    def __init__(self, tmp_path):
        self.top = tmp_path / 'repo'
        self.top.mkdir()
        (tmp_path / 'tmp').mkdir()
        self.env = {**{k.encode(): v.encode() for k, v in LOOKUP.items()}, b'TMPDIR': os.fsencode(tmp_path / 'tmp')}
        self.memo = repo_memo.RepoStateMemo()
        self.cwd = self.top
        self.previous = b''
        self.hits = 0
        self.fds = os.open('.', os.O_RDONLY), os.open(os.devnull, os.O_RDONLY)

    def sh(self, command):
        subprocess.run(['bash', '-c', command], cwd=self.top, env={**LOOKUP, **AUTHOR, 'HOME': str(self.top.parent)},
                       check=True, capture_output=True)

    def read(self, reuse=True, previous=None):
        kept = self.memo.kept
        text, timed_out = repo_state.read_repo_state(
            common.Sandbox('-'), os.fsencode(self.cwd), dict(self.env), self.previous if previous is None else previous,
            65536, 30.0, 2.0, self.fds[0], self.fds[1], False, self.memo, reuse)
        assert not timed_out
        self.hits += reuse and kept is not None and self.memo.kept is kept
        return text

    def step(self, command, hit=True):
        """After the command, the memo's read and a full read print the same, and the next read is a hit."""
        command() if callable(command) else self.sh(command)
        answered = self.read()
        full = self.read(reuse=False)
        assert answered == full, command
        hits = self.hits
        assert self.read() == full, command
        assert self.hits == hits + hit, 'an unchanged repository was read again in full after: ' + command
        if b'\n@@gb:tree\n' not in full:
            return full
        tree = full.split(b'\n@@gb:tree\n')[1].split(b'\n')[0]
        assert len(tree) == 40, full
        # The engine's next read diffs against this one's tree: the memo's answer makes that diff anew.
        assert self.read(previous=self.previous) == self.read(reuse=False, previous=self.previous)
        self.previous = tree
        return full

    def close(self):
        for fd in self.fds:
            os.close(fd)


def _base(s):
    s.sh('git init -q -b main && for i in 1 2 3; do echo "line $i" > f$i.txt; done && mkdir d && echo x > d/x.txt '
         '&& git add . && git commit -qm base')
    return s


@pytest.fixture
def session(tmp_path):
    s = _base(Session(tmp_path))
    yield s
    s.close()


# Each step changes one thing an agent's command can change, and what the full read prints depends on
# every one of them; the rewrites keep the size, and are made in the same clock tick as the read before
# them as often as the machine allows.
STEPS = [
    'true',
    'echo change >> f1.txt',
    'git status --short',
    'touch .git/index.lock && rm .git/index.lock',
    'echo chang2 > f1.txt.new && cat f1.txt.new > f1.txt; rm f1.txt.new',
    'printf "line 9\\n" > f2.txt',
    'chmod +x f3.txt',
    'chmod -x f3.txt',
    'ln -s f1.txt link',
    'ln -sfn f2.txt link',
    'git add link',
    'git add -A',
    'git update-ref refs/heads/other HEAD',
    'git stash -q',
    'git stash pop -q',
    'echo "*.log" > .gitignore && echo x > a.log',
    'echo "*.txt" > .gitignore',
    'echo "a.*" >> .git/info/exclude',
    'mkdir -p empty/dir',
    'mkdir -p newdir && touch newdir/n',
    'rm -rf d',
    'git commit -qam step',
    'git checkout -q -b topic && echo t > t.txt && git add -f t.txt && git commit -qm t && git checkout -q main',
    'echo m >> f2.txt && git commit -qam m; git merge --no-commit topic 2>&1 || true',
    'git merge --abort || true',
    'git pack-refs --all',
    'git checkout -q --detach HEAD',
    'git checkout -q main',
    'echo conflict > t.txt && git add -f t.txt && git commit -qm c && (git merge topic || true)',
    'git merge --abort',
    'git cherry-pick topic || true',
    'git cherry-pick --abort || true',
    'git config diff.renames false',
    'git config user.name someone',
    'git rm -q --cached f1.txt',
    'git reset -q',
    'touch f1.txt',
    'git tag v1',
    'rm -f link',
    'git gc -q',
]


def test_every_step_reads_as_a_full_read_does_and_an_unchanged_repository_without_git(session):
    for command in STEPS:
        session.step(command)


def test_a_same_size_rewrite_that_keeps_every_time_is_found_by_its_content(session, monkeypatch):
    # A clock so coarse that no write moves a change time: every entry is racy, and what proves the
    # rewrite is the content kept of it.
    entry = repo_memo._entry
    monkeypatch.setattr(repo_memo, '_entry', lambda s: entry(s)[:8] + (1 << 62, 1 << 62))
    session.step('echo aaaa > same.txt')
    session.step('echo bbbb > same.txt')
    session.step('ln -sfn aaaa target && ln -sfn bbbb target.new && mv -T target.new target')
    session.step('echo cccc > .git/info/exclude.new && cp .git/info/exclude.new .git/info/exclude')


def test_what_it_cannot_cover_is_read_in_full_every_time(session):
    for command in ['git init -q sub && git -C sub commit -q --allow-empty -m s', 'rm -rf sub',
                    'git config include.path /dev/null', 'git config --unset include.path',
                    'ln -s /dev/zero .git/zero', 'rm .git/zero && git config diff.orderFile /tmp/order']:
        session.sh(command)
        unusual = command.startswith(('git init', 'git config include', 'ln', 'rm .git/zero'))
        assert session.read() == session.read(reuse=False)
        assert (session.memo.kept is None) == unusual, command


def test_where_git_finds_the_repository_is_taken_from_the_memo_only_where_git_would_find_the_same(session):
    # Read from a subdirectory, which can become a repository of its own (a .git, or HEAD, objects and
    # refs in it), and from the work tree's .git whose HEAD stops being a valid one.
    session.cwd = session.top / 'd'
    session.step('echo y > d/y.txt')
    found = []
    answer = session.memo.answer

    def noting(*args):
        kept = answer(*args)
        found.append(session.memo.found)
        return kept
    session.memo.answer = noting
    session.step('echo z >> d/y.txt')
    assert found[0] == (os.fsencode(session.top / '.git'), os.fsencode(session.top))
    session.step('mkdir d/objects d/refs && echo "ref: refs/heads/main" > d/HEAD && echo x > d/objects/x', hit=False)
    session.step('rm -rf d/objects d/refs d/HEAD')
    session.step('git init -q d && echo w > d/w.txt')  # a repository of its own, read as such
    session.step('rm -rf d/.git')
    session.step('echo "ref: refs/heads/other" > .git/HEAD')
    session.step('echo garbage > .git/HEAD', hit=False)
    assert b'@@gb:nogit' in session.read(reuse=False)
    session.step('echo "ref: refs/heads/main" > .git/HEAD')
    assert found.count(None) >= 4


def test_another_environment_or_one_that_reads_elsewhere_is_read_in_full(session):
    session.read()
    assert session.memo.kept is not None
    for name, value in [(b'GIT_CONFIG_GLOBAL', b'/etc/gitconfig'), (b'PATH', b'bin:/usr/bin:/bin'),
                        (b'GIT_DIR', os.fsencode(session.top / '.git')), (b'GIT_CONFIG_VALUE_3', b'/tmp/exclude'),
                        (b'GIT_SHALLOW_FILE', b'/tmp/shallow'), (b'GIT_REPLACE_REF_BASE', b'refs/other/'),
                        (b'GIT_TEST_SPLIT_INDEX', b'1')]:
        env = dict(session.env)
        session.env[name] = value
        assert session.read() == session.read(reuse=False)
        assert session.memo.kept is None, name
        session.env = env


def _mapped_write(path, data):
    # A write through a shared mapping, as an agent's program can make one, on a file system that moves
    # no time for it (tmpfs, in the sandbox's kernel): the modification time is put back after it.
    s = os.stat(path)
    with open(path, 'r+b') as f, mmap.mmap(f.fileno(), 0) as m:
        m[0:len(data)] = data
    os.utime(path, ns=(s.st_atime_ns, s.st_mtime_ns))


def test_a_write_through_a_shared_mapping_that_moves_no_time_is_found_where_git_hashes_again(session, monkeypatch):
    # The change time, which the write here does move, is left out of the fingerprint, and no time is
    # racy: every change is long before the read.
    entry = repo_memo._entry
    monkeypatch.setattr(repo_memo, '_entry', lambda s: entry(s)[:9] + (0,))
    monkeypatch.setattr(repo_memo, 'RACY_NS', 0)
    # An untracked file and a modified one, which git hashes at every read, and a clean tracked one,
    # which git trusts by its lstat (its change time too, here; f2.txt is dated long before the index).
    session.step('git config core.trustctime false && touch -d @1000000000 f2.txt && git update-index -q --refresh '
                 '&& echo untracked > u.txt && echo change >> f1.txt')
    for name, data in (('u.txt', b'UNTR'), ('f1.txt', b'LINE'), ('f2.txt', b'LINE')):
        hits = session.hits
        session.read()  # a step that only reads, long after the change: a hit
        assert session.hits == hits + 1
        printed = session.step(lambda: _mapped_write(session.top / name, data))
    # git misses the write to the clean file, and the memo's read printed what git's does.
    assert b' f2.txt\n' not in printed and b' u.txt\n' in printed and b' f1.txt\n' in printed, printed


def test_a_directory_of_more_entries_than_the_limit_is_not_listed_to_its_end(session, monkeypatch):
    monkeypatch.setattr(repo_memo, 'MAX_ENTRIES', 100)
    session.sh('mkdir many && cd many && touch $(seq 1000)')
    taken = []
    entry = repo_memo._entry
    monkeypatch.setattr(repo_memo, '_entry', lambda s: taken.append(s) or entry(s))
    with pytest.raises(repo_memo.Unusual):
        repo_memo._walk([os.fsencode(session.top)])
    assert len(taken) <= 100
    assert session.read() == session.read(reuse=False) and session.memo.kept is None
