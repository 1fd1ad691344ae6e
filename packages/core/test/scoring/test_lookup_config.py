"""The look-ups' configuration guard (packages/core/src/scoring/lookup-config.py): its parser and quoting
called directly (the file run in a directory with no repository, where it changes nothing), and the file
run as lookupConfigPy sends it on a repository git made. The end-to-end cases, with git reading the
result, are in lookup-environment.test.ts."""
import base64
import os
import subprocess
import zlib

import pytest

GUARD = os.path.join(os.path.dirname(__file__), '..', '..', 'src', 'scoring', 'lookup-config.py')
MARK = '# ---- sent from the next line on ----'


def sent():
    with open(GUARD, encoding='utf-8') as f:
        return f.read().split(MARK + '\n', 1)[1]


@pytest.fixture
def guard(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = {'EXTRA': [], 'BUILT': None}
    exec(compile(sent(), GUARD, 'exec'), names)
    return names


def test_parse_reads_sections_subsections_and_values_as_git_does(guard):
    text = (
        '# comment\n'
        '[core]\n\tbare = false ; trailing\n\tFileMode\n'
        '[remote "origin"]\n\turl = "https://example.org/a b.git"\n'
        '[branch.Main]\n\tremote = origin\n'
        '[user]\n\tname = Ada \\"the\\" Lovelace\\t!\n\temail =   a@b  \n'
    )
    assert guard['parse'](text) == [
        ('core', None, 'bare', 'false'),
        ('core', None, 'filemode', None),
        ('remote', 'origin', 'url', 'https://example.org/a b.git'),
        ('branch', 'main', 'remote', 'origin'),
        ('user', None, 'name', 'Ada "the" Lovelace\t!'),
        ('user', None, 'email', 'a@b'),
    ]


@pytest.mark.parametrize('text', [
    'key = outside any section\n',
    '[core\n',
    '[remote "a\nb"]\n',
    '[core]\n\tbare = "unclosed\n',
    '[core]\n\tbare = bad\\escape\n',
    '[core]\n\t1key = x\n',
    '[core]\n\tbare : x\n',
])
def test_parse_refuses_what_it_cannot_read_exactly(guard, text):
    assert guard['parse'](text) is None


def test_kept_keeps_the_whitelist_and_the_extra_keys_only(guard):
    kept = guard['kept']
    assert kept('core', None, 'bare') and kept('remote', 'origin', 'url') and kept('submodule', 'x', 'path')
    assert not kept('core', None, 'fsmonitor') and not kept('alias', None, 'st') and not kept('remote', None, 'url')
    guard['EXTRA'] = ['status.showuntrackedfiles']
    assert kept('status', None, 'showuntrackedfiles') and not kept('status', None, 'short')


def test_quote_round_trips_through_parse(guard):
    value = 'a "b" \\ c\td\ne'
    assert guard['parse']('[user]\n\tname = ' + guard['quote'](value) + '\n') == [('user', None, 'name', value)]


def test_the_file_rewrites_a_repositorys_configuration(tmp_path):
    subprocess.run(['git', 'init', '-q', str(tmp_path)], check=True)
    config = tmp_path / '.git' / 'config'
    with open(config, 'a') as f:
        f.write('[core]\n\tfsmonitor = ./evil\n[alias]\n\tst = !evil\n[user]\n\tname = Ada\n')
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', 'EXTRA = []\nBUILT = None\n' + sent()],
                   cwd=tmp_path, check=True)
    text = config.read_text()
    assert 'fsmonitor' not in text and 'alias' not in text and '\tname = "Ada"\n' in text
    config.write_text('[core\n')
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', 'EXTRA = []\nBUILT = None\n' + sent()],
                   cwd=tmp_path, check=True)
    assert config.read_text() == '[ unreadable configuration\n'


def repo_with_changes(path):
    def git(*args):
        subprocess.run(['git', '-C', str(path), *args], check=True, capture_output=True)
    subprocess.run(['git', 'init', '-q', str(path)], check=True)
    for name in ('a.txt', 'b.txt', 'c.txt'):
        (path / name).write_text(name + '\n')
    git('add', '.')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base')
    return git


@pytest.mark.parametrize('version', ['2', '3', '4'])
def test_index_bits_finds_assume_unchanged_and_skip_worktree_entries(guard, tmp_path, version):
    git = repo_with_changes(tmp_path / 'r')
    index = str(tmp_path / 'r' / '.git' / 'index')
    git('update-index', '--index-version', version)
    assert guard['index_bits'](index) == ([], False, [])
    git('update-index', '--assume-unchanged', 'a.txt')
    git('update-index', '--skip-worktree', 'c.txt')
    assert guard['index_bits'](index) == ([b'a.txt', b'c.txt'], False, [])


def test_index_bits_tells_a_split_index_and_refuses_what_is_no_index(guard, tmp_path):
    git = repo_with_changes(tmp_path / 'r')
    git('update-index', '--split-index')
    git('update-index', '--skip-worktree', 'b.txt')
    found, split, _ = guard['index_bits'](str(tmp_path / 'r' / '.git' / 'index'))
    # An entry of a split index that replaces one of the shared index has no name of its own.
    assert split and found == [b'']
    (tmp_path / 'junk').write_bytes(b'DIRC\0\0\0\x07')
    assert guard['index_bits'](str(tmp_path / 'junk')) is None
    assert guard['index_bits'](str(tmp_path / 'missing')) is None


def test_the_file_clears_the_bits_and_keeps_the_builds_layout(tmp_path):
    git = repo_with_changes(tmp_path)
    (tmp_path / 'a.txt').write_text('changed\n')
    (tmp_path / 'b.txt').chmod(0o755)
    git('update-index', '--split-index')
    git('update-index', '--assume-unchanged', 'a.txt')
    git('config', 'core.fileMode', 'false')
    status = lambda: subprocess.run(['git', 'status', '--porcelain'],
                                    cwd=tmp_path, capture_output=True, text=True).stdout
    assert status() == ''
    own = base64.b64encode(b'[core]\n\tfilemode = true\n').decode()
    built = {'repo': '.', 'dirs': [], 'files': {}, 'names': [], 'packs': {}, 'own': own}
    env = {'PATH': '/usr/bin:/bin', 'GIT_CONFIG_GLOBAL': '/dev/null', 'GIT_CONFIG_NOSYSTEM': '1'}
    code = 'EXTRA = []\nBUILT = %r\nENV = %r\n' % (built, env)
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', code + sent()], cwd=tmp_path, check=True)
    assert status() == ' M a.txt\n M b.txt\n'


def test_the_file_whitelists_every_submodule_git_status_looks_into(tmp_path):
    # A repository embedded in the work tree, one a .git file names outside it, and one embedded in the
    # first: git status runs a git of each one's own, which reads its configuration.
    run = lambda cwd, *a: subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', *a], cwd=cwd,
                                         check=True, capture_output=True)
    repo, outside = tmp_path / 'r', tmp_path / 'outside'
    run(tmp_path, 'init', '-q', str(repo))
    for sub, git_dir in (('a', None), ('b', outside), ('a/c', None)):
        where = repo / sub
        run(tmp_path, 'init', '-q', *(['--separate-git-dir', str(git_dir)] if git_dir else []), str(where))
        (where / 'f').write_text('f\n')
        run(where, 'add', 'f')
        run(where, 'commit', '-qm', 'f')
    run(repo / 'a', 'add', 'c')
    run(repo / 'a', 'commit', '-qm', 'c')
    run(repo, 'add', 'a', 'b')
    planted = '[filter "x"]\n\tclean = ./evil\n[user]\n\tname = Ada\n'
    configs = [repo / 'a' / '.git' / 'config', outside / 'config', repo / 'a' / 'c' / '.git' / 'config']
    for config in configs:
        with open(config, 'a') as f:
            f.write(planted)
    (repo / 'a' / 'c' / '.git' / 'info' / 'exclude').write_text('*\n')
    built = {'repo': 'r', 'dirs': [], 'files': {}, 'names': ['info/exclude'], 'packs': {}}
    env = {'PATH': '/usr/bin:/bin', 'GIT_CONFIG_GLOBAL': '/dev/null', 'GIT_CONFIG_NOSYSTEM': '1'}
    code = 'EXTRA = []\nBUILT = %r\nENV = %r\n' % (built, env)
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', code + sent()], cwd=repo, check=True)
    for config in configs:
        text = config.read_text()
        assert 'filter' not in text and 'name = "Ada"' in text
    assert not (repo / 'a' / 'c' / '.git' / 'info' / 'exclude').exists()


def test_the_file_clears_the_bits_in_every_submodules_index(tmp_path):
    # An assume-unchanged file in a submodule hides its change from git status in the submodule and in
    # the repository (which shows the submodule as modified), whether embedded or under .git/modules.
    run = lambda cwd, *a: subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t',
                                          '-c', 'protocol.file.allow=always', *a], cwd=cwd, check=True,
                                         capture_output=True, text=True).stdout
    repo, source = tmp_path / 'r', tmp_path / 'source'
    for where in (repo, source, repo / 'embedded'):
        run(tmp_path, 'init', '-q', str(where))
    for where in (source, repo / 'embedded'):
        (where / 'f').write_text('f\n')
        run(where, 'add', 'f')
        run(where, 'commit', '-qm', 'f')
    run(repo, 'submodule', 'add', '-q', str(source), 'added')
    run(repo, 'add', 'embedded')
    run(repo, 'commit', '-qm', 'subs')
    for sub in ('added', 'embedded'):
        (repo / sub / 'f').write_text('changed\n')
        run(repo / sub, 'update-index', '--assume-unchanged', 'f')
    assert run(repo, 'status', '--porcelain') == ''
    built = {'repo': 'r', 'dirs': [], 'files': {}, 'names': [], 'packs': {}}
    env = {'PATH': '/usr/bin:/bin', 'GIT_CONFIG_GLOBAL': '/dev/null', 'GIT_CONFIG_NOSYSTEM': '1'}
    code = 'EXTRA = []\nBUILT = %r\nENV = %r\n' % (built, env)
    subprocess.run(['/usr/bin/python3', '-I', '-S', '-c', code + sent()], cwd=repo, check=True)
    assert run(repo, 'status', '--porcelain') == ' M added\n M embedded\n'
    assert run(repo / 'added', 'status', '--porcelain') == ' M f\n'


def test_forged_loose_names_an_object_rewritten_in_place(guard, tmp_path):
    repo_with_changes(tmp_path / 'r')
    objects = tmp_path / 'r' / '.git' / 'objects'
    assert guard['forged_loose'](str(objects)) == []
    blob = subprocess.run(['git', '-C', str(tmp_path / 'r'), 'rev-parse', 'HEAD:a.txt'],
                          capture_output=True, text=True, check=True).stdout.strip()
    path = objects / blob[:2] / blob[2:]
    path.chmod(0o644)
    path.write_bytes(zlib.compress(b'blob 4\0evil'))
    assert guard['forged_loose'](str(objects)) == ['error: hash mismatch ' + str(path)]
