"""What the sandbox's step and session runners share (packages/sandbox/runner/common.py), on the host as
the local driver runs it: no sandbox uid, so commands run as this user and only their process group is
killed. The uid switching and the sweep of the sandbox's uid need a container: the sandbox's integration
tests run them there. Importing common restores SIGPIPE's default action in this process, as it does in
the runner."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'runner'))
import common  # after the runner's directory is put on the path

ENV = {b'PATH': b'/usr/bin:/bin', b'LC_ALL': b'C'}


def test_a_sink_keeps_the_head_and_the_tail_and_counts_everything():
    sink = common.Sink(4, 3, 1000)
    for chunk in (b'abcdef', b'ghij', b'klmnop'):
        assert sink.push(chunk)
    assert (sink.kept(), sink.total) == (b'abcdnop', 16)
    batch = common.Sink(5, 0, 5)
    assert batch.push(b'abc') and not batch.push(b'defgh')
    assert batch.kept() == b'abcde'


def test_environment_blobs_exit_codes_and_program_lookup():
    assert common.parse_env(b'A=1\0B=x=y\0\0EMPTY=\0') == {b'A': b'1', b'B': b'x=y', b'EMPTY': b''}
    codes = [common.exit_code(0, False), common.exit_code(3, False), common.exit_code(-9, False),
             common.exit_code(-15, True)]
    assert codes == [0, 3, 137, 124]
    assert common.program_path(b'sh', ENV) in (b'/usr/bin/sh', b'/bin/sh')
    assert common.program_path(b'no-such-program-here', ENV) is None


def run(command, tmp_path, timeout_s=10, argv=None, cwd=None, limit=1 << 20):
    out, err = common.Sink(limit, 0, limit), common.Sink(limit, 0, limit)
    home = os.open('.', os.O_RDONLY)
    stdin = os.open('/dev/null', os.O_RDONLY)
    try:
        status, finished, timed_out, t0, t1 = common.run_command(
            common.Sandbox('-'), command, cwd or os.fsencode(tmp_path), timeout_s, 0.2, out, err, home, stdin, ENV,
            argv=argv)
    finally:
        os.close(home)
        os.close(stdin)
    return status, finished, timed_out, out.kept(), err.kept()


def test_a_command_runs_in_its_directory_with_its_output_and_exit_code(tmp_path):
    status, finished, timed_out, out, err = run(b'pwd; echo oops >&2; exit 3', tmp_path)
    assert (status, finished, timed_out) == (3, True, False)
    assert (out, err) == (os.fsencode(tmp_path) + b'\n', b'oops\n')


def test_a_plain_program_call_runs_without_a_shell_and_a_missing_one_is_bashs_127(tmp_path):
    assert run(b'echo a b', tmp_path, argv=[b'echo', b'a', b'b'])[:4] == (0, True, False, b'a b\n')
    status, finished, _, _, err = run(b'nope', tmp_path, argv=[b'nope'])
    assert (status, finished, err) == (127, True, b'bash: line 1: nope: command not found\n')


def test_a_missing_directory_is_126_and_nothing_starts(tmp_path):
    status, _, _, _, err = run(b'true', tmp_path, cwd=os.fsencode(tmp_path / 'gone'))
    assert status == 126 and err.startswith(b'gitbench: cannot enter ')


def test_a_command_past_its_timeout_is_terminated(tmp_path):
    start = time.time()
    status, finished, timed_out, _, _ = run(b'sleep 30', tmp_path, timeout_s=0.3)
    assert (status, finished, timed_out) == (-15, False, True)
    assert time.time() - start < 10


def test_a_flood_past_the_limit_closes_the_pipe_and_its_writer_dies_of_sigpipe(tmp_path):
    status, finished, _, out, _ = run(b'yes', tmp_path, limit=1000)
    assert (status, finished, out) == (-13, False, b'y\n' * 500)


def test_what_a_command_leaves_running_in_its_group_ends_with_it(tmp_path):
    start = time.time()
    status, _, _, out, _ = run(b'sleep 30 & echo started', tmp_path)
    # The background sleep holds the output pipe open; the command ends when it is killed.
    assert (status, out) == (0, b'started\n')
    assert time.time() - start < 10


def run_at_once(commands, tmp_path, timeout_s=10):
    # commands: shell command texts, or None for one whose directory is missing
    home = os.open('.', os.O_RDONLY)
    stdin = os.open('/dev/null', os.O_RDONLY)
    here, gone = os.fsencode(tmp_path), os.fsencode(tmp_path / 'gone')
    specs = [(c or b'true', None, here if c else gone, ENV, common.Sink(100, 0, 100), common.Sink(100, 0, 100))
             for c in commands]
    try:
        results = common.run_commands(common.Sandbox('-'), specs, timeout_s, 0.2, home, stdin)
    finally:
        os.close(home)
        os.close(stdin)
    return [r[:3] + (s[4].kept(), s[5].kept()) for r, s in zip(results, specs)]


def test_commands_run_at_once_each_with_its_own_output_and_exit_code(tmp_path):
    start = time.time()
    results = run_at_once([b'sleep 0.5; echo one; exit 3', None, b'sleep 0.5; echo two >&2'], tmp_path)
    assert time.time() - start < 0.95
    assert results[0] == (3, True, False, b'one\n', b'')
    assert results[1][:3] == (126, True, False) and results[1][4].startswith(b'gitbench: cannot enter ')
    assert results[2] == (0, True, False, b'', b'two\n')


def test_at_the_timeout_only_the_commands_still_running_are_terminated(tmp_path):
    start = time.time()
    results = run_at_once([b'echo quick', b'sleep 30', b'sleep 30 & echo left'], tmp_path, timeout_s=0.5)
    assert results[0] == (0, True, False, b'quick\n', b'')
    assert results[1][:3] == (-15, False, True)
    # Its background sleep held the pipe open; it is killed with its group once the command exits.
    assert results[2] == (0, True, False, b'left\n', b'')
    assert time.time() - start < 10


def test_the_runner_never_takes_the_sandboxs_uid_as_its_own_real_uid_to_start_a_command(tmp_path, monkeypatch):
    # kill(2) lets a process signal a target whose real uid is its own. A runner that set its real uid
    # to the sandbox's so that a spawned command inherits it could be killed by that command in the
    # instant before it took root's back (seen as an excluded "killed from outside" attempt). Here the
    # ids the runner itself sets are recorded, and the command is started by a fork that stops short.
    uid = 54321
    sandbox = common.Sandbox.__new__(common.Sandbox)
    sandbox.uid = uid
    calls = []
    monkeypatch.setattr(os, 'setresuid', lambda *ids: calls.append(('setresuid', ids)))
    monkeypatch.setattr(os, 'setresgid', lambda *ids: calls.append(('setresgid', ids)))
    monkeypatch.setattr(os, 'seteuid', lambda i: calls.append(('seteuid', (i,))))
    monkeypatch.setattr(os, 'setegid', lambda i: calls.append(('setegid', (i,))))
    forked = []
    monkeypatch.setattr(common, 'spawn_as', lambda *a: forked.append(a[0]) or 4242)
    home = os.open('.', os.O_RDONLY)
    try:
        pid, status = common.start(sandbox, b'true', None, str(tmp_path).encode(), ENV, 0, 1, 2, home,
                                   common.Sink(100, 0, 100))
    finally:
        os.close(home)
    assert (pid, status, forked) == (4242, None, [uid])
    assert all(ids[0] != uid for name, ids in calls if name in ('setresuid', 'setresgid')), calls
    assert ('seteuid', (uid,)) in calls  # the directory is still entered as the sandbox's uid
