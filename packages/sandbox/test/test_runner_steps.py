"""The session runner's file requests and the step runner's thenPython (packages/sandbox/runner/session.py
and batch.py) on the host. Both files end by calling main(), which serves stdin: they are loaded here
without that last line (an import would run it; a __main__ guard would change the files, which the
sandbox image's tag hashes). The protocols around them are the TypeScript tests'."""
import errno
import os
import sys

import pytest

RUNNER = os.path.join(os.path.dirname(__file__), '..', 'runner')
sys.path.insert(0, RUNNER)
import common  # after the runner's directory is put on the path


def load(name):
    path = os.path.join(RUNNER, name)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    assert text.endswith('\n\nmain()\n'), name + ' no longer ends by calling main()'
    scope = {'__name__': name, '__file__': path}
    exec(compile(text[:-len('main()\n')], path, 'exec'), scope)
    return scope


session = load('session.py')
batch = load('batch.py')


def test_a_file_is_read_whole_refused_past_the_limit_or_found_missing(tmp_path):
    read_file = session['read_file']
    (tmp_path / 'f').write_bytes(b'12345')
    assert read_file(str(tmp_path / 'f'), 5) == (1, 5, b'12345')
    assert read_file(str(tmp_path / 'f'), 4) == (2, 5, b'')
    assert read_file(str(tmp_path / 'missing'), 5) == (0, 0, b'')


@pytest.mark.parametrize('make', ['fifo', 'directory', 'device'])
def test_only_a_regular_file_is_read_or_written_and_a_fifo_never_waits(tmp_path, make):
    path = str(tmp_path / 'x')
    if make == 'fifo':
        os.mkfifo(path)
    elif make == 'directory':
        os.mkdir(path)
    else:
        path = '/dev/zero'
    with pytest.raises(OSError) as read:
        session['read_file'](path, 100)
    assert read.value.errno in (errno.EINVAL, errno.EISDIR)
    if make != 'device':
        with pytest.raises(OSError) as write:
            session['write_file'](path, b'data')
        assert write.value.errno in (errno.EINVAL, errno.EISDIR, errno.ENXIO)


def test_a_write_makes_the_parents_and_replaces_the_content(tmp_path):
    target = tmp_path / 'a' / 'b' / 'f'
    session['write_file'](str(target), b'long content')
    session['write_file'](str(target), b'short')
    assert target.read_bytes() == b'short'


def then_python(code, tmp_path, left=5, cap=1 << 20, cwd=None):
    out, err = common.Sink(cap, 0, cap), common.Sink(1 << 20, 0, 1 << 20)
    home = os.open('.', os.O_RDONLY)
    try:
        status, timed_out = batch['run_python_as_is'](code, cwd or os.fsencode(tmp_path), left, home, out, err)
    finally:
        os.close(home)
    return status, timed_out, out.kept(), err.kept()


def test_then_python_writes_to_out_and_prints_to_the_steps_streams_in_the_steps_directory(tmp_path):
    code = ('import os, sys\nout.write(os.getcwd().encode() + b"\\n")\n'
            'print("printed")\nprint("warned", file=sys.stderr)\n')
    assert then_python(code, tmp_path) == (0, False, os.fsencode(tmp_path) + b'\nprinted\n', b'warned\n')
    assert sys.stdout is not None and os.getcwd() != str(tmp_path)


def test_then_python_that_raises_is_exit_1_with_its_traceback(tmp_path):
    status, timed_out, _, err = then_python('raise ValueError("boom")\n', tmp_path)
    assert (status, timed_out) == (1, False) and err.endswith(b'ValueError: boom\n')


def test_then_python_past_its_time_is_interrupted(tmp_path):
    status, timed_out, _, _ = then_python('while True:\n    pass\n', tmp_path, left=0.2)
    assert (status, timed_out) == (124, True)


def test_then_python_past_the_output_cap_sees_a_broken_pipe(tmp_path):
    status, _, out, err = then_python('for _ in range(100):\n    out.write(b"0123456789")\n', tmp_path, cap=25)
    assert status == 1 and out == b'0123456789' * 2 + b'01234' and b'BrokenPipeError' in err


def test_then_python_in_a_missing_directory_is_126(tmp_path):
    assert then_python('pass\n', tmp_path, cwd=os.fsencode(tmp_path / 'gone'))[0] == 126
