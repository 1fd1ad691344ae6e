/**
 * The programs that run commands inside the sandbox: one python3 process per batch (the step runner),
 * or one per agent attempt that serves many requests over its stdin and stdout (the session runner).
 *
 * They keep the guarantees the batch promises (see batch-script.ts) while starting only the command's
 * own shell per command: a shell runner needed `timeout`, two `head`s, `sh`, `bash`, `stat` and `cat`
 * for every step, about ten process starts, which cost more than most steps themselves (a fixture
 * build runs a dozen steps, and a campaign builds hundreds of fixtures); and an agent's tool call
 * through `docker exec` costs about 80 ms, where a request to a runner already started costs a few.
 *
 * Per command: `bash -c <command>` (a batch step that is one plain git call: git itself, with the
 * environment bash would have given it, since bash -c would only split the words and exec git in its
 * own place) in a session and process group of its own, stdin from /dev/null (or
 * the request's bytes), in the command's directory. Its stdout and stderr are read into memory: a
 * batch step keeps up to cap + 1 bytes and then closes the pipe, so a flood stops its writer
 * (SIGPIPE) instead of filling memory; a session command keeps the head and the tail and counts what
 * it drops, up to a drain limit where the pipe is closed the same way. When the shell exits, its
 * whole process group is killed, so background children cannot outlive the command; the pipes are then
 * read to their end, which waits for a child that left the group (the host's guard stops such a
 * runner). At the timeout the group gets TERM, and KILL after a grace period.
 *
 * A batch step may carry Python code (thenPython) that the step runner runs in its own process after
 * the command exited 0, its bytes appended to the step's stdout: work a step would otherwise start a
 * python3 for (the working-tree listing of every state read) costs no process start.
 *
 * Batch records are framed on stdout exactly as parseBatch reads them:
 *   @@GBSTEP <id> <rc> <finished 1|0> <rc or 128+signal or 124> <t0> <t1>\n<stdout bytes>\n<stderr bytes>\n<stdout><stderr>
 * "finished" says the shell exited by itself; without it the step was killed (by its timeout, 124, or
 * by something it ran) before it could finish. A last line `@@GBEND` says the runner reached the end.
 * The session protocol is described in session-protocol.ts.
 *
 * Plain Python 3.8+ standard library (pidfd is used where the kernel and Python have it), no backticks
 * or template placeholders (it is embedded below).
 */
/** Grace between TERM and KILL at a step's timeout; the runner is told it on its command line. */
export const KILL_GRACE_S = 2;

const RUNNER_COMMON_PY = String.raw`
import _signal, os, select, sys, time

# Python ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored across exec: every step
# would see EPIPE instead of dying of it. The runner itself should die if the host stops reading.
_signal.signal(13, _signal.SIG_DFL)
_signal.signal(25, _signal.SIG_DFL)
SIGALRM, SIGKILL, SIGTERM = 14, 9, 15

def emit(data):
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]

def kill_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except OSError:
        pass

def exited(pid):
    # WNOWAIT leaves the child unreaped, so its process group id cannot be reused before the group is killed.
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True

class Sink:
    # Keeps the first 'head' and the last 'tail' bytes of a stream and counts them all; past 'limit'
    # bytes the pipe is closed. A batch step is head = limit = cap + 1, tail 0.
    def __init__(self, head, tail, limit):
        self.head, self.tail, self.limit = head, tail, limit
        self.first = bytearray()
        self.last = bytearray()
        self.total = 0

    def push(self, data):
        self.total += len(data)
        room = self.head - len(self.first)
        if room > 0:
            self.first += data[:room]
            data = data[room:]
        if data and self.tail > 0:
            self.last += data
            if len(self.last) > 2 * self.tail:
                del self.last[:len(self.last) - self.tail]
        return self.total < self.limit

    def kept(self):
        last = self.last[len(self.last) - self.tail:] if len(self.last) > self.tail else self.last
        return bytes(self.first) + bytes(last)

def reap_orphans(keep):
    # As the sandbox's init, the runner inherits whatever a command orphaned: reap those that ended,
    # leaving the command's own shell ('keep') for its caller.
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None or info.si_pid == keep:
            return
        try:
            os.waitpid(info.si_pid, 0)
        except ChildProcessError:
            return

def program_path(name, env):
    # Where bash would find the program (a plain call names it without a slash): the first
    # executable file of that name on PATH.
    for d in env.get('PATH', '/usr/bin:/bin').encode().split(b':'):
        p = os.path.join(d or b'.', name)
        if os.access(p, os.X_OK) and not os.path.isdir(p):
            return p
    return None

def run_command(command, cwd, timeout_s, grace_s, out, err, home, stdin_fd, env, sweep=False, argv=None):
    # Returns (status, finished, timed_out, t0, t1): status is the exit code, or minus the signal.
    # 'sweep': the runner is the sandbox's init and runs one command at a time, so whatever else is
    # running when the shell exits was started by this command: all of it is killed, including
    # children that left the process group (they would otherwise hold the output pipes open).
    # 'argv': the command's words, when it is one program call a shell would only split: bash -c
    # would exec that program in its own place after setting PWD and _, which is done here instead,
    # without the shell's start.
    t0 = time.time()
    try:
        os.chdir(cwd)
    except OSError as e:
        err.push(b'gitbench: cannot enter ' + cwd + b': ' + (e.strerror or 'error').encode() + b'\n')
        return 126, True, False, t0, time.time()
    if argv:
        path = program_path(argv[0], env)
        if path is None:
            os.fchdir(home)
            err.push(b'bash: line 1: ' + argv[0] + b': command not found\n')
            return 127, True, False, t0, time.time()
        # SHLVL stays: bash counts itself out again when it execs its last command in its own place.
        spawn_env = dict(env)
        spawn_env['PWD'] = os.getcwd()
        spawn_env['_'] = os.fsdecode(path)
        program, args = path, argv
    else:
        spawn_env, program, args = env, b'bash', [b'bash', b'-c', command]
    # Pipes are created close-on-exec: only the command's own stdout and stderr reach it.
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    try:
        # posix_spawn starts the shell without copying the runner (vfork), in the directory entered above.
        pid = os.posix_spawnp(program, args, spawn_env, setsid=True, file_actions=[
            (os.POSIX_SPAWN_DUP2, stdin_fd, 0), (os.POSIX_SPAWN_DUP2, w_out, 1), (os.POSIX_SPAWN_DUP2, w_err, 2)])
    finally:
        os.fchdir(home)
        os.close(w_out)
        os.close(w_err)
    sinks = {r_out: out, r_err: err}
    reading = {r_out, r_err}
    poller = select.poll()
    for fd in reading:
        poller.register(fd, select.POLLIN)
    try:
        pidfd = os.pidfd_open(pid)
        poller.register(pidfd, select.POLLIN)
    except (AttributeError, OSError):
        pidfd = None
    deadline = t0 + timeout_s
    kill_at = None
    timed_out = done = False
    while not done or reading:
        now = time.time()
        if not done and not timed_out and now >= deadline:
            timed_out = True
            kill_group(pid, SIGTERM)
            kill_at = now + grace_s
        if not done and kill_at is not None and now >= kill_at:
            kill_group(pid, SIGKILL)
            kill_at = None
        if done:
            wait = None
        else:
            until = deadline if not timed_out else kill_at if kill_at is not None else now + 0.05
            wait = max(0, int((until - now) * 1000) + 1)
            if pidfd is None:
                wait = min(wait, 10)
            if sweep:
                wait = min(wait, 500)
                reap_orphans(pid)
        for fd, _ in poller.poll(wait):
            if fd not in reading:
                continue
            data = os.read(fd, 65536)
            if data and sinks[fd].push(data):
                continue
            # End of output, or the limit is reached: closing the pipe stops a writer that goes on.
            poller.unregister(fd)
            os.close(fd)
            reading.discard(fd)
        if not done and exited(pid):
            done = True
            # Whatever the command left running in its group ends with it.
            kill_group(pid, SIGKILL)
            if sweep:
                # Every process but the runner itself (kill(-1) spares its caller).
                try:
                    os.kill(-1, SIGKILL)
                except OSError:
                    pass
            if pidfd is not None:
                poller.unregister(pidfd)
                os.close(pidfd)
    raw = os.waitpid(pid, 0)[1]
    if sweep:
        reap_orphans(None)
    status = -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)
    return status, status >= 0 and not timed_out, timed_out, t0, time.time()

def exit_code(status, timed_out):
    # 124 for a timeout, 128 + signal for a command killed otherwise, else its own code.
    return 124 if timed_out else 128 - status if status < 0 else status
`;

const BATCH_MAIN_PY = String.raw`
FRAME = b'@@GBSTEP'
END = b'@@GBEND\n'

def record(key, rc, finished, tr, t0, t1, out, err):
    head = b'%s %s %d %d %d %.6f %.6f\n%d\n%d\n' % (FRAME, key, rc, 1 if finished else 0, tr, t0, t1, len(out), len(err))
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

def run_python(code, cwd, deadline, home, out, err):
    # Runs a step's thenPython in this process, in the step's directory, with a fresh globals dict and
    # 'out' appending to the step's stdout. Returns (status, timed_out). An exception ends the step
    # with exit code 1 and its traceback on stderr; the step's timeout (what the command left of it)
    # interrupts the code with SIGALRM. Whatever happens, the runner goes on with the next step.
    left = deadline - time.time()
    if left <= 0:
        return 124, True
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

def main():
    grace_s = float(sys.argv[2])
    with open(sys.argv[1], 'rb') as f:
        plan = f.read()
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
            _, key, timeout_s, cap, unrunnable, cwd_len, cmd_len, py_len, argc = line()
            cwd, command, then_python = take(int(cwd_len)), take(int(cmd_len)), take(int(py_len))
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
                status, finished, timed_out, t0, t1 = run_command(command, cwd, int(timeout_s), grace_s, out, err, home, devnull, os.environ, argv=argv)
                if then_python and finished and status == 0:
                    status, timed_out = run_python(then_python, cwd, t0 + int(timeout_s), home, out, err)
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
`;

const SESSION_MAIN_PY = String.raw`
import errno, tempfile

def read_exact(n):
    chunks = []
    while n > 0:
        data = os.read(0, min(n, 1048576))
        if not data:
            sys.exit(0)
        chunks.append(data)
        n -= len(data)
    return b''.join(chunks)

def read_line():
    data = bytearray()
    while True:
        c = os.read(0, 1)
        if not c:
            sys.exit(0)
        if c == b'\n':
            return bytes(data)
        data += c

def reply(kind, rid, fields, *payloads):
    head = b'@@GB' + kind + b' ' + rid + b''.join(b' ' + f for f in fields) + b'\n'
    if sum(len(p) for p in payloads) < 1048576:
        emit(head + b''.join(payloads))
    else:
        # A large file is written as it is, not copied once more into one reply.
        for part in (head,) + payloads:
            emit(part)

def failure(rid, message):
    data = message.encode('utf8', 'replace')
    reply(b'ERR', rid, [b'%d' % len(data)], data)

def parse_env(blob):
    env = {}
    for item in blob.split(b'\0'):
        if item:
            k, _, v = item.partition(b'=')
            env[k] = v
    return env

def main():
    grace_s = float(sys.argv[2])
    home = os.open('.', os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_RDONLY)
    base_env = dict(os.environb)
    # In a container the runner is started as its init (PID 1): the kernel then refuses every signal
    # a command sends it, kill -9 -1 included, so nothing an agent runs can end its own session; and
    # it may stop every process a command leaves behind. Anywhere else (the local driver, on the
    # host) it must not, and does not.
    sweep = os.getpid() == 1
    while True:
        fields = read_line().split(b' ')
        kind, rid, sizes = fields[0], fields[1], [int(x) for x in fields[2:]]
        try:
            if kind == b'X':
                # X id timeout_ms head tail limit cwd_len cmd_len env_len stdin_len
                timeout_ms, head, tail, limit, cwd_len, cmd_len, env_len, stdin_len = sizes
                cwd, command, env_blob, stdin = read_exact(cwd_len), read_exact(cmd_len), read_exact(env_len), read_exact(stdin_len)
                env = dict(base_env)
                env.update(parse_env(env_blob))
                stdin_fd = devnull
                if stdin_len:
                    f = tempfile.TemporaryFile()
                    f.write(stdin)
                    f.seek(0)
                    stdin_fd = f.fileno()
                out, err = Sink(head, tail, limit), Sink(head, tail, limit)
                if b'\0' in command:
                    err.push(b'gitbench: the command contains a NUL byte and was not run\n')
                    status, finished, timed_out, t0, t1 = 126, True, False, time.time(), time.time()
                else:
                    status, finished, timed_out, t0, t1 = run_command(command, cwd, timeout_ms / 1000.0, grace_s, out, err, home, stdin_fd, env, sweep)
                if stdin_fd != devnull:
                    f.close()
                o, e = out.kept(), err.kept()
                reply(b'EXEC', rid, [b'%d' % exit_code(status, timed_out), b'1' if finished else b'0', b'1' if timed_out else b'0',
                      b'%.6f' % t0, b'%.6f' % t1, b'%d' % out.total, b'%d' % err.total, b'%d' % len(o), b'%d' % len(e)], o, e)
            elif kind == b'R':
                # R id path_len limit: more than 'limit' bytes is refused (found 2, with the size
                # seen), so neither a huge file nor /dev/zero can exhaust the sandbox's memory.
                path = read_exact(sizes[0])
                limit = sizes[1]
                try:
                    with open(path, 'rb') as f:
                        size = os.fstat(f.fileno()).st_size
                        data = b'' if size > limit else f.read(limit + 1)
                except FileNotFoundError:
                    reply(b'FILE', rid, [b'0', b'0'])
                    continue
                if size > limit or len(data) > limit:
                    reply(b'FILE', rid, [b'2', b'%d' % max(size, len(data))])
                    continue
                reply(b'FILE', rid, [b'1', b'%d' % len(data)], data)
            elif kind == b'W':
                path, data = read_exact(sizes[0]), read_exact(sizes[1])
                parent = os.path.dirname(path)
                if parent:
                    os.makedirs(parent, exist_ok=True)
                with open(path, 'wb') as f:
                    f.write(data)
                reply(b'OK', rid, [])
            elif kind == b'E':
                base_env = parse_env(read_exact(sizes[0]))
                reply(b'OK', rid, [])
            elif kind == b'Q':
                reply(b'OK', rid, [])
                return
            else:
                failure(rid, 'unknown request ' + kind.decode('ascii', 'replace'))
        except OSError as e:
            failure(rid, '%s: %s' % (errno.errorcode.get(e.errno, 'error'), e.strerror or str(e)))

main()
`;

export const STEP_RUNNER_PY = RUNNER_COMMON_PY + BATCH_MAIN_PY;
export const SESSION_RUNNER_PY = RUNNER_COMMON_PY + SESSION_MAIN_PY;

/**
 * The steps as the runner reads them: per group a line `G <stopOnFailure 0|1> <required group|-> <steps>`,
 * then per step a line `S <key> <timeout s> <cap> <unrunnable 0|1> <cwd bytes> <command bytes> <python bytes> <words>`
 * followed by the directory, the command and the step's thenPython (none: 0 bytes) themselves
 * (length-prefixed, so any byte but NUL may appear), then per word of its argv (none: run by bash -c)
 * a line `<bytes>` and the word. The code travels in the plan, not on a command line.
 */
export interface RunnerGroup {
  stopOnFailure: boolean;
  requires?: number;
  steps: { key: string; command: string; cwd: string; timeoutS: number; cap: number; unrunnable: boolean; thenPython?: string; argv?: readonly string[] }[];
}

export function encodeRunnerPlan(groups: RunnerGroup[]): Buffer {
  const parts: Buffer[] = [];
  for (const g of groups) {
    parts.push(Buffer.from(`G ${g.stopOnFailure ? 1 : 0} ${g.requires ?? '-'} ${g.steps.length}\n`));
    for (const s of g.steps) {
      const cwd = Buffer.from(s.cwd, 'utf8');
      const command = Buffer.from(s.command, 'utf8');
      const python = Buffer.from(s.thenPython ?? '', 'utf8');
      const argv = (s.argv ?? []).map((word) => Buffer.from(word, 'utf8'));
      parts.push(Buffer.from(`S ${s.key} ${s.timeoutS} ${s.cap} ${s.unrunnable ? 1 : 0} ${cwd.length} ${command.length} ${python.length} ${argv.length}\n`), cwd, command, python);
      for (const word of argv) parts.push(Buffer.from(`${word.length}\n`), word);
    }
  }
  return Buffer.concat(parts);
}
