"""The gist evaluator (packages/core/src/families/gist/evaluator.py) run as the scorer runs it, on this
host's Python and pytest instead of the sandbox's: an original repository packed as original.tar.gz, a
gist written into the repository the agent worked in, and the one JSON object it prints."""
import io
import json
import os
import subprocess
import tarfile

import pytest

EVALUATOR = os.path.join(os.path.dirname(__file__), '..', '..', 'src', 'families', 'gist', 'evaluator.py')

ORIGINAL = {
    'pkg/__init__.py': '',
    'pkg/mod.py': 'def add(a, b):\n    return a + b\n\n\ndef unused():\n    return 0\n',
    'tests/test_mod.py': ('from pkg.mod import add\n\n\n'
                          'def test_add():\n    print("adding")\n    assert add(1, 2) == 3\n'),
}

INLINED = (
    'def add(a, b):\n'
    '    return a + b\n'
    '\n'
    '\n'
    'def test_add():\n'
    '    print("adding")\n'
    '    assert add(1, 2) == 3\n'
)


def evaluate(tmp_path, gist=None, original=ORIGINAL):
    stage = tmp_path / 'stage'
    repo = tmp_path / 'repo'
    stage.mkdir()
    repo.mkdir()
    with tarfile.open(stage / 'original.tar.gz', 'w:gz') as tar:
        for name, text in original.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    # The repository the agent worked in is a checkout of the original.
    for name, text in original.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    if gist is not None:
        (repo / 'concise.py').write_text(gist)
    task = {'gist': 'concise.py', 'options': [], 'test_file': 'tests/test_mod.py', 'nodes': ['test_add'],
            'pythonpath': ['.'], 'timeout': 60}
    proc = subprocess.run(['/usr/bin/python3', '-I', EVALUATOR, json.dumps(task), str(stage)], cwd=repo,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    evidence = json.loads(proc.stdout)
    assert 'evaluatorError' not in evidence, evidence['evaluatorError']
    return evidence


def test_an_inlined_gist_is_faithful_and_its_executed_lines_are_recorded(tmp_path):
    evidence = evaluate(tmp_path, INLINED)
    assert evidence['original']['ran'] is True
    calls = [(r['test'], r['outcome']) for r in evidence['original']['reports'] if r['when'] == 'call']
    assert calls == [('test_add', 'passed')]
    assert evidence['fidelity']['ok'] is True, evidence['fidelity']['detail']
    assert evidence['gist']['testsFound'] == ['test_add']
    assert evidence['gist']['testsMissing'] == []
    # The body of add ran (line 2); nothing was left out of the trace.
    assert 2 in evidence['execution']['executed']
    # add's texts are found in the original's module, in the same block.
    assert evidence['candidates']['add'][0]['file'] == os.path.join('pkg', 'mod.py')
    assert evidence['candidates']['add'][0]['found'] == ['def add(a, b):', 'return a + b']


def test_a_gist_that_imports_the_original_is_not_faithful(tmp_path):
    # The gist runs in a directory of its own, so it reaches the original through a path of its own.
    reach = 'import sys\nsys.path.insert(0, %r)\nfrom pkg.mod import add\n' % str(tmp_path / 'repo')
    evidence = evaluate(tmp_path, reach + '\n\ndef test_add():\n    print("adding")\n    assert add(1, 2) == 3\n')
    assert evidence['fidelity']['ok'] is False
    assert 'imports the original code' in evidence['fidelity']['detail']


def test_different_output_is_not_faithful(tmp_path):
    evidence = evaluate(tmp_path, INLINED.replace('return a + b', 'print("x")\n    return a + b'))
    assert evidence['fidelity']['ok'] is False
    assert 'stdout differs' in evidence['fidelity']['detail']


def test_a_failing_gist_is_explained_by_its_exception_and_the_end_of_its_traceback(tmp_path):
    # The original test is put back, and it calls add, which the gist never defined.
    renamed = INLINED.replace('def add(a, b):\n    return a + b\n', 'def plus(a, b):\n    return a + b\n')
    evidence = evaluate(tmp_path, renamed)
    detail = evidence['fidelity']['detail']
    assert evidence['fidelity']['ok'] is False
    assert detail.startswith("test_add (call): outcome differs: 'passed' on the original, 'failed' on the gist")
    assert '\nOn the gist it raised NameError; the end of its traceback:\n' in detail
    tail = detail.split('the end of its traceback:\n', 1)[1].split('\n')
    assert 1 < len(tail) <= 12
    assert "E       NameError: name 'add' is not defined" in tail
    assert tail[-1].endswith(': NameError')
    # The run directory's path is not in the evidence.
    assert str(tmp_path) not in detail


def test_a_failed_assertion_is_named_as_such(tmp_path):
    evidence = evaluate(tmp_path, INLINED.replace('return a + b', 'return a - b'))
    assert 'On the gist it raised AssertionError;' in evidence['fidelity']['detail']
    assert 'assert -1 == 3' in evidence['fidelity']['detail']


def test_a_gist_that_fails_to_import_is_explained_by_its_exception(tmp_path):
    evidence = evaluate(tmp_path, INLINED + '\nsettings = load_settings()\n')
    detail = evidence['fidelity']['detail']
    assert detail.startswith(
        'the gist could not be collected: importing it raised NameError; the end of its traceback:\n')
    assert "name 'load_settings' is not defined" in detail
    assert str(tmp_path) not in detail


def test_the_original_tests_replace_the_gists_own(tmp_path):
    # The gist's test passes trivially; the original's version of it runs instead.
    evidence = evaluate(tmp_path, INLINED.replace('    assert add(1, 2) == 3\n', '    assert True\n'))
    assert evidence['gist']['replaced'] == [{'test': 'test_add', 'lines': [5, 7]}]
    assert evidence['fidelity']['ok'] is True, evidence['fidelity']['detail']


@pytest.mark.parametrize('gist, field, expected', [
    (None, 'exists', False),
    ('def add(a, b:\n', 'syntaxError', "'(' was never closed (line 1)"),
    ('def add(a, b):\n    return a + b\n', 'testsMissing', ['test_add']),
])
def test_a_missing_broken_or_testless_gist_is_recorded_without_running(tmp_path, gist, field, expected):
    evidence = evaluate(tmp_path, gist)
    assert evidence['gist'][field] == expected
    assert 'fidelity' not in evidence


def test_an_original_whose_command_fails_to_collect_is_reported(tmp_path):
    broken = dict(ORIGINAL, **{'tests/test_mod.py': 'import nowhere\n\n\ndef test_add():\n    pass\n'})
    evidence = evaluate(tmp_path, INLINED, broken)
    assert evidence['originalProblem'] == 'the command does not run on the original repository'
