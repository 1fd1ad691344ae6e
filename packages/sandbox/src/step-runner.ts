/**
 * The program that runs a batch's steps inside the sandbox, one python3 process per batch.
 *
 * It keeps the guarantees the batch promises (see batch-script.ts) while starting only the step's own
 * shell per step: a shell runner needed `timeout`, two `head`s, `sh`, `bash`, `stat` and `cat` for
 * every step, about ten process starts, which cost more than most steps themselves (a fixture build
 * runs a dozen steps, and a campaign builds hundreds of fixtures).
 *
 * Per step: `bash -c <command>` in a session and process group of its own, stdin from /dev/null, in
 * the step's directory. Its stdout and stderr are read into memory up to cap + 1 bytes each; past
 * that the pipe is closed, so a flood stops its writer (SIGPIPE) instead of filling memory. When the
 * shell exits, its whole process group is killed, so background children cannot outlive the step;
 * the pipes are then read to their end, which waits for a child that left the group (the host's guard
 * stops such a batch). At the timeout the group gets TERM, and KILL after a grace period.
 *
 * Records are framed on stdout exactly as parseBatch reads them:
 *   @@GBSTEP <id> <rc> <finished 1|0> <rc or 128+signal or 124> <t0> <t1>\n<stdout bytes>\n<stderr bytes>\n<stdout><stderr>
 * "finished" says the shell exited by itself; without it the step was killed (by its timeout, 124, or
 * by something it ran) before it could finish. A last line `@@GBEND` says the runner reached the end.
 *
 * Plain Python 3.8+ standard library (pidfd is used where the kernel and Python have it), no backticks
 * or template placeholders (it is embedded below).
 */
/** Grace between TERM and KILL at a step's timeout; the runner is told it on its command line. */
export const KILL_GRACE_S = 2;

export const STEP_RUNNER_PY = String.raw`
import _signal, os, select, sys, time

# Python ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored across exec: every step
# would see EPIPE instead of dying of it. The runner itself should die if the host stops reading.
_signal.signal(13, _signal.SIG_DFL)
_signal.signal(25, _signal.SIG_DFL)
SIGKILL, SIGTERM = 9, 15
KILL_GRACE_S = float(sys.argv[2])
FRAME = b'@@GBSTEP'
END = b'@@GBEND\n'

def emit(data):
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]

def record(key, rc, finished, tr, t0, t1, out, err):
    head = b'%s %s %d %d %d %.6f %.6f\n%d\n%d\n' % (FRAME, key, rc, 1 if finished else 0, tr, t0, t1, len(out), len(err))
    emit(head + bytes(out) + bytes(err))

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

def spawn(command, devnull, w_out, w_err):
    # posix_spawn starts the shell without copying the runner (vfork); the step's directory is the
    # runner's own at that moment (see run_step).
    return os.posix_spawnp(b'bash', [b'bash', b'-c', command], os.environ, setsid=True, file_actions=[
        (os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, w_out, 1), (os.POSIX_SPAWN_DUP2, w_err, 2)])

def run_step(key, command, cwd, timeout_s, cap, devnull, home):
    t0 = time.time()
    try:
        os.chdir(cwd)
    except OSError as e:
        message = b'gitbench: cannot enter ' + cwd + b': ' + (e.strerror or 'error').encode() + b'\n'
        record(key, 126, True, 126, t0, time.time(), b'', message)
        return 126
    # Pipes are created close-on-exec: only the step's own stdout and stderr reach the step.
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    try:
        pid = spawn(command, devnull, w_out, w_err)
    finally:
        os.fchdir(home)
        os.close(w_out)
        os.close(w_err)
    buffers = {r_out: bytearray(), r_err: bytearray()}
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
            kill_at = now + KILL_GRACE_S
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
        for fd, _ in poller.poll(wait):
            if fd not in reading:
                continue
            data = os.read(fd, 65536)
            buf = buffers[fd]
            if data:
                room = cap - len(buf)
                buf += data[:room]
                if len(data) < room:
                    continue
            # End of output, or the cap is reached: closing the pipe stops a writer that goes on.
            poller.unregister(fd)
            os.close(fd)
            reading.discard(fd)
        if not done and exited(pid):
            done = True
            # Whatever the step left running in its group ends with it.
            kill_group(pid, SIGKILL)
            if pidfd is not None:
                poller.unregister(pidfd)
                os.close(pidfd)
    raw = os.waitpid(pid, 0)[1]
    status = -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)
    t1 = time.time()
    out, err = buffers[r_out], buffers[r_err]
    if timed_out:
        record(key, 124, False, 124, t0, t1, out, err)
        return 124
    if status < 0:
        record(key, 128 - status, False, 128 - status, t0, t1, out, err)
        return 128 - status
    record(key, status, True, status, t0, t1, out, err)
    return status

def main():
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
            _, key, timeout_s, cap, unrunnable, cwd_len, cmd_len = line()
            cwd, command = take(int(cwd_len)), take(int(cmd_len))
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
                rc = run_step(key, command, cwd, int(timeout_s), int(cap), devnull, home)
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

/**
 * The steps as the runner reads them: per group a line `G <stopOnFailure 0|1> <required group|-> <steps>`,
 * then per step a line `S <key> <timeout s> <cap> <unrunnable 0|1> <cwd bytes> <command bytes>` followed
 * by the directory and the command themselves (length-prefixed, so any byte but NUL may appear).
 */
export interface RunnerGroup {
  stopOnFailure: boolean;
  requires?: number;
  steps: { key: string; command: string; cwd: string; timeoutS: number; cap: number; unrunnable: boolean }[];
}

export function encodeRunnerPlan(groups: RunnerGroup[]): Buffer {
  const parts: Buffer[] = [];
  for (const g of groups) {
    parts.push(Buffer.from(`G ${g.stopOnFailure ? 1 : 0} ${g.requires ?? '-'} ${g.steps.length}\n`));
    for (const s of g.steps) {
      const cwd = Buffer.from(s.cwd, 'utf8');
      const command = Buffer.from(s.command, 'utf8');
      parts.push(Buffer.from(`S ${s.key} ${s.timeoutS} ${s.cap} ${s.unrunnable ? 1 : 0} ${cwd.length} ${command.length}\n`), cwd, command);
    }
  }
  return Buffer.concat(parts);
}
