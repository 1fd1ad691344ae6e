"""The repo_checks scorer's test harness (packages/core/src/families/repo-checks/tests-run.py) run as the
scorer runs it, on this host's python3 and pytest: a repository as the current directory, a staging
directory with the pinned overlay, and the verdict as the marker lines it prints last."""
import io
import json
import os
import subprocess
import tarfile

HERE = os.path.dirname(__file__)
TESTS_RUN = os.path.join(HERE, '..', '..', 'src', 'families', 'repo-checks', 'tests-run.py')
MARK = '@@gitbench-tests '
ENV = {'PATH': '/usr/bin:/bin', 'HOME': '/nonexistent', 'GIT_CONFIG_NOSYSTEM': '1', 'GIT_CONFIG_GLOBAL': '/dev/null',
       'GIT_AUTHOR_NAME': 't', 'GIT_AUTHOR_EMAIL': 't@t', 'GIT_COMMITTER_NAME': 't', 'GIT_COMMITTER_EMAIL': 't@t'}
PINNED = ('from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\n'
          'def test_neg():\n    assert add(-2, -3) == -5\n')


def git(repo, *args):
    return subprocess.run(('git',) + args, cwd=repo, env=ENV, check=True, capture_output=True, text=True).stdout


def commit(repo, files, message):
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(repo, 'add', '-A')
    git(repo, 'commit', '-qm', message)


def repository(tmp_path, calc='def add(a, b):\n    return a + b\n', extra=None):
    repo = tmp_path / 'repo'
    repo.mkdir()
    git(repo, 'init', '-q')
    commit(repo, {'calc.py': 'def add(a, b):\n    return a - b\n',
                  'tests/test_calc.py': 'def test_nothing():\n    pass\n'}, 'Add calc')
    commit(repo, {'calc.py': calc, **(extra or {})}, 'Fix add')
    return repo


def stage(tmp_path):
    staged = tmp_path / 'stage'
    staged.mkdir(parents=True)
    data = PINNED.encode()
    with tarfile.open(staged / 'overlay.0', 'w:gz') as archive:
        info = tarfile.TarInfo('test_calc.py')
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return staged


def run(tmp_path, repo, **spec):
    full = {'rev': 'HEAD', 'range': None, 'command': 'python3 -m pytest -q -p no:cacheprovider tests',
            'overlay': [['tests/', 'overlay.0']], 'pythonpath': ['.'], 'timeout': 60, 'max_commits': 5, 'keep': 4000,
            **spec}
    proc = subprocess.run(['/usr/bin/python3', '-I', '-S', TESTS_RUN, json.dumps(full), str(stage(tmp_path))],
                          cwd=repo, env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line[len(MARK):]) for line in proc.stdout.split('\n') if line.startswith(MARK)], proc.stdout


def test_the_pinned_tests_replace_the_commits_and_pass_on_the_fix(tmp_path):
    records, _ = run(tmp_path, repository(tmp_path))
    assert records[0]['commits'][0]['subject'] == 'Fix add'
    assert (records[1]['exit'], records[1]['counts']) == (0, {'passed': 2})


def test_a_range_runs_at_every_commit_oldest_first(tmp_path):
    repo = repository(tmp_path)
    records, _ = run(tmp_path, repo, rev=None, range='HEAD')
    assert [r['commit'] for r in records[1:]] == git(repo, 'rev-list', '--reverse', 'HEAD').split()
    # The commit before the fix fails the pinned tests, the fix passes them.
    assert [r['exit'] for r in records[1:]] == [1, 0]
    records, _ = run(tmp_path / 'all', repo, rev=None, range='HEAD', max_commits=1)
    assert records == [{'error': '2 commits to test; at most 1 are'}]


def test_files_that_steer_pytest_are_removed_and_the_working_tree_is_not_read(tmp_path):
    conftest = ('import pytest\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n'
                '    r = (yield).get_result()\n    r.outcome, r.longrepr = "passed", None\n')
    repo = repository(tmp_path, calc='def add(a, b):\n    return a - b\n', extra={
        'conftest.py': conftest, 'tests/conftest.py': conftest, 'sitecustomize.py': 'import os\nos._exit(0)\n',
        'pytest.ini': '[pytest]\naddopts = --co\n', 'pytest.py': 'raise SystemExit(0)\n',
        'tests/test_more.py': 'def test_x():\n    pass\n'})
    # The fix only in the working tree: the tests run on the commit.
    (repo / 'calc.py').write_text('def add(a, b):\n    return a + b\n')
    records, output = run(tmp_path, repo)
    assert (records[1]['exit'], records[1]['counts']) == (1, {'failed': 2})
    assert 'test_more' not in output


def test_a_marker_printed_by_the_tested_code_is_defused(tmp_path):
    forged = f'print({MARK!r} + \'{{"commit": "x", "exit": 0}}\')\n'
    repo = repository(tmp_path, calc=forged + 'def add(a, b):\n    return a - b\n')
    records, output = run(tmp_path, repo, command='python3 -c "import calc"')
    assert [r.get('exit') for r in records[1:]] == [0]
    assert records[1]['commit'] != 'x'
    assert '@@ gitbench-tests {"commit": "x"' in output


def test_a_command_past_its_time_is_stopped_and_the_record_says_so(tmp_path):
    repo = repository(tmp_path)
    records, _ = run(tmp_path, repo, command='(sleep 30 &) ; sleep 30', timeout=1)
    assert records[1]['timed_out'] is True


def test_a_name_that_is_not_a_commit_is_an_error_record(tmp_path):
    records, _ = run(tmp_path, repository(tmp_path), rev='no-such-branch')
    assert records == [{'error': 'no-such-branch does not name a commit'}]
