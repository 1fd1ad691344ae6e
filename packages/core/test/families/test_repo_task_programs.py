"""A repository task's two sandbox programs (packages/core/src/families/repo-task/grader-runner.py and
outputs-listing.py) run as the scorer runs them, on this host's python3: a repository with the agent's
outputs as the current directory, a staging directory with the grader and its ground truth."""
import hashlib
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
GRADER_RUNNER = os.path.join(HERE, '..', '..', 'src', 'families', 'repo-task', 'grader-runner.py')
OUTPUTS_LISTING = os.path.join(HERE, '..', '..', 'src', 'families', 'repo-task', 'outputs-listing.py')
MARK = '@@GITBENCH_VERDICT '


def grade(tmp_path, grader, outputs=None, declared=('output/result.txt',), truth=None, params=None):
    repo, stage = tmp_path / 'repo', tmp_path / 'stage'
    repo.mkdir(parents=True)
    stage.mkdir()
    for name, text in (outputs or {}).items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        if name.endswith('/'):
            (repo / name).mkdir()
        else:
            (repo / name).write_text(text)
    for name, text in (truth or {}).items():
        (stage / ('truth.' + name)).write_text(text)
    (stage / 'grader.py').write_text(grader)
    task = {'outputs': list(declared), 'truth': sorted(truth or {}), 'params': params or {}}
    proc = subprocess.run(['/usr/bin/python3', '-I', GRADER_RUNNER, json.dumps(task), MARK, str(stage)], cwd=repo,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    marked = [line for line in proc.stdout.split('\n') if line.startswith(MARK)]
    assert len(marked) == 1, proc.stdout
    return json.loads(marked[0][len(MARK):])


COMPARE = '''
def grade(ctx):
    print("noise the grader printed")
    with open(ctx["outputs"]["output/result.txt"]) as f, open(ctx["truth"]["expected"]) as g:
        same = f.read().strip() == g.read().strip()
    return {"Process": True, "Result": same, "comments": "same" if same else "differs", "quality": 1 if same else 0}
'''


def test_the_graders_verdict_is_the_one_marked_line(tmp_path):
    verdict = grade(tmp_path, COMPARE, {'output/result.txt': '42\n'}, truth={'expected': '42'})
    assert verdict == {'Process': True, 'Result': True, 'comments': 'same', 'quality': 1, 'kind': 'graded'}
    assert grade(tmp_path / 'b', COMPARE, {'output/result.txt': '41\n'}, truth={'expected': '42'})['Result'] is False


def test_missing_and_empty_outputs_are_decided_before_the_grader_runs(tmp_path):
    never = 'def grade(ctx):\n    raise AssertionError("must not run")\n'
    assert grade(tmp_path / 'a', never)['kind'] == 'no_output'
    assert grade(tmp_path / 'b', never, {'output/result.txt': ''})['kind'] == 'empty_output'
    # A directory counts as empty with no file anywhere below it.
    assert grade(tmp_path / 'c', never, {'output/x/sub/': None}, declared=['output/x/'])['kind'] == 'empty_output'
    assert grade(tmp_path / 'd', never, declared=['output/x/'])['comments'] == 'no output found: output/x/'


@pytest.mark.parametrize('grader, comments', [
    ('def grade(ctx):\n    raise ValueError("boom")\n', 'ValueError: boom'),
    ('import sys\ndef grade(ctx):\n    sys.exit(3)\n', 'the grader exited (3) without a verdict'),
    ('def grade(ctx):\n    return [True]\n', 'the grader returned list, not a verdict'),
    ('def grade(ctx):\n    return {"Process": 1, "Result": True}\n', 'malformed verdict'),
    ('def grade(ctx):\n    return {"Process": True, "Result": True, "quality": 0.3}\n', 'quality 0.3'),
    ('def grade(ctx):\n    return {"Process": False, "Result": True, "comments": "odd"}\n',
     'Result true with Process false: odd'),
])
def test_a_grader_that_crashes_or_answers_badly_is_a_crash(tmp_path, grader, comments):
    verdict = grade(tmp_path, grader, {'output/result.txt': 'x'})
    assert verdict['kind'] == 'grader_crash'
    assert (verdict['Process'], verdict['Result'], verdict['quality']) == (False, False, 0)
    assert comments in verdict['comments']


def test_the_grader_gets_params_and_a_private_work_directory_removed_afterwards(tmp_path):
    grader = '''
import os
def grade(ctx):
    open(os.path.join(ctx["work"], "scratch"), "w").close()
    with open(os.path.join(ctx["repo"], "work-was"), "w") as f:
        f.write(ctx["work"])
    return {"Process": True, "Result": ctx["params"]["n"] == 3, "comments": ""}
'''
    verdict = grade(tmp_path, grader, {'output/result.txt': 'x'}, params={'n': 3})
    assert (verdict['Result'], verdict['quality']) == (True, 1)
    assert not os.path.exists((tmp_path / 'repo' / 'work-was').read_text())


def listing(repo, declared, cap):
    proc = subprocess.run(['/usr/bin/python3', '-I', OUTPUTS_LISTING, json.dumps(declared), str(cap)], cwd=repo,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)['files']


def test_the_outputs_listing_carries_small_texts_and_images_and_hashes_everything(tmp_path):
    (tmp_path / 'out' / 'sub').mkdir(parents=True)
    (tmp_path / 'out' / 'a.txt').write_text('hello')
    (tmp_path / 'out' / 'sub' / 'p.png').write_bytes(b'\x89PNG')
    (tmp_path / 'out' / 'big.txt').write_text('x' * 100)
    (tmp_path / 'out' / 'bin').write_bytes(b'\xff\xfe')
    (tmp_path / 'single.txt').write_text('one')
    files = listing(tmp_path, ['out/', 'single.txt', 'absent.txt'], 10)
    by_path = {f['path']: f for f in files}
    assert [f['path'] for f in files] == ['out/a.txt', 'out/big.txt', 'out/bin', 'out/sub/p.png', 'single.txt']
    assert by_path['out/a.txt']['text'] == 'hello'
    assert by_path['out/a.txt']['sha256'] == hashlib.sha256(b'hello').hexdigest()
    assert by_path['out/sub/p.png']['mime'] == 'image/png'
    assert 'text' not in by_path['out/big.txt'] and by_path['out/big.txt']['bytes'] == 100
    assert 'text' not in by_path['out/bin']


def test_the_outputs_listing_stops_at_50_files(tmp_path):
    (tmp_path / 'out').mkdir()
    for n in range(60):
        (tmp_path / 'out' / ('f%02d' % n)).write_text(str(n))
    assert len(listing(tmp_path, ['out/'], 10)) == 50
