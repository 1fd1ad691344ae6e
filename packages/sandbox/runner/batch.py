"""The step runner: runs one batch's steps (see the sandbox's batch-script.ts) and frames their records.

Usage: batch.py <dir> <kill grace s> <uid or ->. <dir> holds `steps` (the plan, see encodeRunnerPlan)
and `env` (the environment the batch's preamble exported, NUL-separated, as `env -0` prints it); the
runner reads both and removes the directory before the first step.

Records are framed on stdout exactly as the host's reader (batch-output-reader.ts) reads them:
  @@GBSTEP <key> <rc> <finished 1|0> <rc or 128+signal or 124> <t0> <t1>\\n
  <stdout bytes>\\n<stderr bytes>\\n<stdout><stderr>
"finished" says the shell exited by itself; without it the step was killed (by its timeout, 124, or
by something it ran) before it could finish. A last line `@@GBEND` says the runner reached the end.
Records come in the plan's order, each step at most once; the host refuses anything else as tampering.

A step may carry Python code (thenPython) that runs in this process after the command exited 0, with
the sandbox's permissions (Sandbox.acting_start), its bytes appended to the step's stdout: work a step
would otherwise start a python3 for (the working-tree listing of every state read) costs no process start.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import SIGALRM, Sandbox, Sink, _signal, emit, exit_code, parse_env, run_command  # noqa: E402

FRAME = b'@@GBSTEP'
END = b'@@GBEND\n'


def record(key, rc, finished, tr, t0, t1, out, err):
    head = b'%s %s %d %d %d %.6f %.6f\n%d\n%d\n' % (
        FRAME, key, rc, 1 if finished else 0, tr, t0, t1, len(out), len(err))
    emit(head + out + err)


class StepTimeout(BaseException):
    pass


class StepOutput:
    # The 'out' of a step's Python: its bytes go to the step's stdout after the command's. Once the
    # cap is reached it is closed, as a command's pipe is, so a flood stops its writer.
    def __init__(self, sink):
        self.sink = sink
        self.closed = False

    def write(self, data):
        if self.closed:
            raise BrokenPipeError(32, 'the step output cap is reached')
        if not self.sink.push(data):
            self.closed = True
        return len(data)

    def flush(self):
        pass


class StepText:
    # sys.stdout and sys.stderr while a step's Python runs: a print() must not reach the runner's own
    # stdout, where it would break the records' framing.
    def __init__(self, write):
        self.write_bytes = write

    def write(self, text):
        self.write_bytes(text.encode('utf8', 'surrogateescape'))
        return len(text)

    def flush(self):
        pass


def run_python(sandbox, code, cwd, deadline, home, out, err):
    # Runs a step's thenPython in this process, in the step's directory, with a fresh globals dict and
    # 'out' appending to the step's stdout. Returns (status, timed_out). An exception ends the step
    # with exit code 1 and its traceback on stderr; the step's timeout (what the command left of it)
    # interrupts the code with SIGALRM. Whatever happens, the runner goes on with the next step.
    left = deadline - time.time()
    if left <= 0:
        return 124, True
    sandbox.acting_start()
    try:
        return run_python_as_is(code, cwd, left, home, out, err)
    finally:
        sandbox.acting_end()


def run_python_as_is(code, cwd, left, home, out, err):
    try:
        os.chdir(cwd)
    except OSError as e:
        err.push(b'gitbench: cannot enter ' + cwd + b': ' + (e.strerror or 'error').encode() + b'\n')
        return 126, False
    armed = [True]

    def on_alarm(signum, frame):
        if armed[0]:
            raise StepTimeout()
    saved = sys.stdout, sys.stderr
    scope = {'__name__': '__thenPython__'}
    previous = _signal.signal(SIGALRM, on_alarm)
    _signal.setitimer(_signal.ITIMER_REAL, left)
    try:
        try:
            scope['out'] = StepOutput(out)
            sys.stdout, sys.stderr = StepText(scope['out'].write), StepText(err.push)
            exec(compile(code, '<thenPython>', 'exec'), scope)
        finally:
            # Disarmed before anything else, so a late alarm cannot interrupt what follows.
            armed[0] = False
            _signal.setitimer(_signal.ITIMER_REAL, 0)
        return 0, False
    except StepTimeout:
        return 124, True
    except BaseException:
        import traceback
        err.push(traceback.format_exc().encode('utf8', 'replace'))
        return 1, False
    finally:
        sys.stdout, sys.stderr = saved
        _signal.signal(SIGALRM, previous)
        os.fchdir(home)
        # The code's functions refer to their globals: a cycle the collector would free only later.
        scope.clear()


def read_inputs(directory):
    with open(os.path.join(directory, 'steps'), 'rb') as f:
        plan = f.read()
    with open(os.path.join(directory, 'env'), 'rb') as f:
        env_blob = f.read()
    for name in ('steps', 'env'):
        os.unlink(os.path.join(directory, name))
    os.rmdir(directory)
    env = {}
    for item in env_blob.split(b'\0'):
        key, eq, value = item.partition(b'=')
        if eq and key not in (b'_', b'SHLVL'):
            env[key] = value
    # The shells the preamble ran in counted themselves; a command sees the level its batch's shell had.
    if b'SHLVL' in os.environb:
        env[b'SHLVL'] = os.environb[b'SHLVL']
    return plan, env


def main():
    sandbox = Sandbox(sys.argv[3])
    grace_s = float(sys.argv[2])
    plan, env = read_inputs(sys.argv[1])
    pos = 0

    def line():
        nonlocal pos
        end = plan.index(b'\n', pos)
        fields = plan[pos:end].split(b' ')
        pos = end + 1
        return fields

    def take(n):
        nonlocal pos
        pos += n
        return plan[pos - n:pos]
    devnull = os.open(os.devnull, os.O_RDONLY)
    home = os.open('.', os.O_RDONLY)
    ok = []
    while pos < len(plan):
        _, stop_on_failure, required, count = line()
        stop_on_failure = stop_on_failure == b'1'
        skip = required != b'-' and not ok[int(required)]
        stop = fail = False
        for _ in range(int(count)):
            _, key, timeout_s, cap, unrunnable, cwd_len, cmd_len, py_len, envc, argc = line()
            cwd, command, then_python = take(int(cwd_len)), take(int(cmd_len)), take(int(py_len))
            step_env = [take(int(line()[0])) for _ in range(int(envc))]
            argv = [take(int(line()[0])) for _ in range(int(argc))]
            if skip:
                continue
            if stop_on_failure and stop:
                fail = True
                continue
            if unrunnable == b'1':
                now = time.time()
                record(key, 126, True, 126, now, now, b'', b'')
                rc = 126
            else:
                out, err = Sink(int(cap), 0, int(cap)), Sink(int(cap), 0, int(cap))
                own_env = env
                if step_env:
                    own_env = dict(env)
                    own_env.update(parse_env(b'\0'.join(step_env)))
                status, finished, timed_out, t0, t1 = run_command(sandbox, command, cwd, int(timeout_s), grace_s,
                                                                  out, err, home, devnull, own_env, argv=argv)
                if then_python and finished and status == 0:
                    status, timed_out = run_python(sandbox, then_python, cwd, t0 + int(timeout_s), home, out, err)
                    finished = not timed_out
                    t1 = time.time()
                rc = exit_code(status, timed_out)
                record(key, rc, finished, rc, t0, t1, out.kept(), err.kept())
            if rc != 0:
                if stop_on_failure:
                    stop = True
                else:
                    fail = True
        ok.append(not skip and not stop and not fail)
    # Only a batch that ran to its end says so: a container removed or killed mid-batch is told apart.
    emit(END)


main()
