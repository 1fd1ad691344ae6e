"""What the step runner (batch.py) and the session runner (session.py) share: running one command.

They keep the guarantees a batch promises while starting only the command's own shell per command:
a shell runner needed `timeout`, two `head`s, `sh`, `bash`, `stat` and `cat` for every step, and an
agent's tool call through `docker exec` costs about 80 ms, where a request to a runner already
started costs a few.

Per command: `bash -c <command>` (a batch step that is one plain git call: git itself, with the
environment bash would have given it) in a session and process group of its own, stdin from
/dev/null (or the request's bytes), in the command's directory. Its stdout and stderr are read into
memory: a batch step keeps up to cap + 1 bytes and then closes the pipe, so a flood stops its writer
(SIGPIPE); a session command keeps the head and the tail and counts what it drops, up to a drain
limit where the pipe is closed the same way. At the timeout the group gets TERM, and KILL after a
grace period.

The model under test is an adversary, and everything it runs goes through here. In a sandbox the
runner is started as root with only the SETUID, SETGID and KILL capabilities and is told the
sandbox's uid (Sandbox below): every command, and every file the runner reads or writes for a
request, runs as that uid, which nothing else in the sandbox uses. The runner's own stdout is the
channel to the host; a command's processes cannot open it through /proc (the runner, its parent
and the container's init are another uid, and the runner is not dumpable), hold no descriptor of it
(only the command's own pipes reach it), and cannot signal or trace the runner. When a command's
shell exits, every process of the sandbox's uid is killed, looping until none is left, so nothing
it started (detached, re-parented, forking) runs on into the next command or the scorer's look-ups.
Without a uid (the local driver, on the host) commands run as the runner's own user and only the
command's process group is killed: that driver isolates nothing and says so.

Plain Python 3.8+ standard library; pidfd is used where the kernel and Python have it.
"""
import _signal
import os
import select
import time

# Python ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored across exec: every step
# would see EPIPE instead of dying of it. The runner itself should die if the host stops reading.
_signal.signal(13, _signal.SIG_DFL)
_signal.signal(25, _signal.SIG_DFL)
SIGALRM, SIGKILL, SIGTERM = 14, 9, 15
# One byte for each time the runner is about to kill or start processes of the sandbox's uid: a file of
# root's in the sticky /tmp, which no process of the sandbox's uid can write, replace or remove.
# observe.py reads its size before and after a read, to tell a death the runner caused (its timeout
# kill, its sweep) from one the sandbox's own processes did while they should have been stopped.
RUNNER_ACTS = '/tmp/.gitbench-runner-acts'


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


class Sandbox:
    """The sandbox's uid, or None on the host: who runs the commands and who the runner acts as."""

    def __init__(self, uid_arg):
        self.uid = None if uid_arg in (None, '-') else int(uid_arg)
        self.acts = None
        if self.uid is None:
            return
        # No supplementary group of the runner's reaches a command.
        os.setgroups([])
        try:
            self.acts = os.open(RUNNER_ACTS, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                                0o644)
            if os.fstat(self.acts).st_uid != 0:
                os.close(self.acts)
                self.acts = None
        except OSError:
            # Taken by the sandbox's uid first: its deaths are then never the runner's to explain.
            self.acts = None
        # Non-dumpable: no process of another uid may open the runner's /proc files (its descriptors,
        # its memory) or trace it. The kernel sets this on any change of the effective uid, which
        # costs two system calls where loading ctypes for prctl(PR_SET_DUMPABLE, 0) costs 20-100 ms.
        self.acting_start()
        self.acting_end()

    def acting_start(self):
        # File work done for a request runs with the sandbox's permissions, never root's. The real
        # and saved uids stay root's, so no process of the sandbox's uid can signal or trace the runner meanwhile.
        if self.uid is not None:
            os.setegid(self.uid)
            os.seteuid(self.uid)

    def acting_end(self):
        if self.uid is not None:
            os.seteuid(0)
            os.setegid(0)

    def acting_on(self, exited=None):
        # Counted before the act, so that observe.py's look after a read sees the count move first: a
        # line each, naming the command's process whose exit the act follows, if so.
        if self.acts is not None:
            try:
                os.write(self.acts, b'.\n' if exited is None else b'exit %d\n' % exited)
            except OSError:
                pass

    def sweep(self):
        # Kills every process of the sandbox's uid, looking again until a look finds none alive: a
        # process that forks while it is being killed, or was re-parented, is found by the next look.
        if self.uid is None:
            return
        mine = b'\t%d\t' % self.uid
        for attempt in range(2000):
            alive = False
            for name in os.listdir('/proc'):
                if not name.isdigit():
                    continue
                try:
                    with open('/proc/' + name + '/status', 'rb') as f:
                        status = f.read()
                except OSError:
                    continue
                uid_at = status.find(b'\nUid:')
                if uid_at < 0 or status.find(b'\nState:\tZ') >= 0:
                    continue
                line = status[uid_at + 5:status.find(b'\n', uid_at + 1)] + b'\t'
                if mine in line.replace(b' ', b'\t'):
                    alive = True
                    try:
                        os.kill(int(name), SIGKILL)
                    except OSError:
                        pass
            if not alive:
                return
            # The killed become zombies, which the look skips: whoever is their parent reaps them.
            time.sleep(0.001)


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
    # leaving the commands' own processes (the pids in 'keep') for their caller. Elsewhere it has only
    # its own children.
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None or (keep is not None and info.si_pid in keep):
            return
        try:
            os.waitpid(info.si_pid, 0)
        except ChildProcessError:
            return


def program_path(name, env):
    # Where bash would find the program (a plain call names it without a slash): the first
    # executable file of that name on PATH.
    for d in env.get(b'PATH', b'/usr/bin:/bin').split(b':'):
        p = os.path.join(d or b'.', name)
        if os.access(p, os.X_OK, effective_ids=True) and not os.path.isdir(p):
            return p
    return None


def start(sandbox, command, argv, cwd, env, stdin_fd, w_out, w_err, home, err):
    # Starts the command in its directory (entered as the sandbox's uid, so its permissions decide).
    # Returns the pid, or None and the exit status when nothing started, with bash's message. The
    # runner goes back to its own directory as the sandbox's uid too: root here holds no capability to
    # read or search what the sandbox's uid owns.
    sandbox.acting_start()
    try:
        found = locate(command, argv, cwd, env, err)
        if found[0] is None:
            return found
        program, args, spawn_env = found
        if sandbox.uid is None:
            files = [(os.POSIX_SPAWN_DUP2, stdin_fd, 0), (os.POSIX_SPAWN_DUP2, w_out, 1),
                     (os.POSIX_SPAWN_DUP2, w_err, 2)]
            return os.posix_spawn(program, args, spawn_env, setsid=True, file_actions=files), None
        sandbox.acting_end()
        try:
            return spawn_as(sandbox.uid, program, args, spawn_env, stdin_fd, w_out, w_err), None
        finally:
            sandbox.acting_start()
    finally:
        os.fchdir(home)
        sandbox.acting_end()


def locate(command, argv, cwd, env, err):
    # The command's directory entered and its program found, as the sandbox's uid: (program, args,
    # environment), or (None, exit status) with bash's message.
    try:
        os.chdir(cwd)
    except OSError as e:
        err.push(b'gitbench: cannot enter ' + cwd + b': ' + (e.strerror or 'error').encode() + b'\n')
        return None, 126
    if not argv:
        return b'/bin/bash', [b'bash', b'-c', command], env
    path = program_path(argv[0], env)
    if path is None:
        err.push(b'bash: line 1: ' + argv[0] + b': command not found\n')
        return None, 127
    # SHLVL stays: bash counts itself out again when it execs its last command in its own place.
    spawn_env = dict(env)
    spawn_env[b'PWD'] = os.getcwd().encode()
    spawn_env[b'_'] = path
    return path, argv, spawn_env


def spawn_as(uid, program, args, env, stdin_fd, w_out, w_err):
    # The child alone becomes the sandbox's uid (real, effective and saved) before its exec; the
    # runner's own ids never change. A runner that took the sandbox's uid as its real uid to let
    # posix_spawn's child inherit it could be signalled by that uid: posix_spawn returns after the
    # child's exec, and a command that ran `kill -9 $PPID` before the runner took its ids back killed
    # it, which the host reads as a kill from outside, an excluded attempt (out-of-memory.int).
    # The child also starts with the highest OOM score: a command that fills the sandbox's memory
    # loses its own processes to the kernel's OOM killer, not the runner (its processes may lower
    # the score back; the runner then killed for memory is theirs to answer for: tampering).
    # An exec that fails sends its errno through a close-on-exec pipe, and is raised here, as
    # posix_spawn raises it.
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.setsid()
            fd = os.open('/proc/self/oom_score_adj', os.O_WRONLY)
            os.write(fd, b'1000')
            os.close(fd)
            os.dup2(stdin_fd, 0)
            os.dup2(w_out, 1)
            os.dup2(w_err, 2)
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.execve(program, args, env)
        except OSError as e:
            os.write(w, b'%d' % (e.errno or 1))
        finally:
            os._exit(127)
    os.close(w)
    try:
        failed = os.read(r, 32)
    finally:
        os.close(r)
    if failed:
        os.waitpid(pid, 0)
        code = int(failed)
        raise OSError(code, os.strerror(code))
    return pid


def run_command(sandbox, command, cwd, timeout_s, grace_s, out, err, home, stdin_fd, env, init=False, argv=None):
    # Returns (status, finished, timed_out, t0, t1): status is the exit code, or minus the signal.
    # 'init': the runner is the sandbox's init and reaps what commands orphan while it waits.
    # 'argv': the command's words, when it is one program call a shell would only split: bash -c
    # would exec that program in its own place after setting PWD and _, which is done here instead,
    # without the shell's start.
    return run_commands(sandbox, [(command, argv, cwd, env, out, err)], timeout_s, grace_s, home, stdin_fd, init)[0]


def run_commands(sandbox, commands, timeout_s, grace_s, home, stdin_fd, init=False):
    # Runs the commands, each (command, argv, cwd, env, out, err) as run_command takes them, at once,
    # under one timeout, and returns run_command's result for each. Every process of the sandbox's uid
    # is killed once all of them have exited (not as each one does, which would kill the others): a
    # command's leftovers meanwhile can only hold its own pipes open, and they are read until the sweep.
    # A command may carry a seventh item, a command of the same form started once it has exited (before
    # the timeout), whose result follows the others'.
    t0 = time.time()
    started = []  # [index, pid, pidfd, timed out]
    then = [c[6] for c in commands if len(c) > 6]
    then_at = {}
    for i, c in enumerate(commands):
        if len(c) > 6:
            then_at[i] = len(commands) + len(then_at)
    results = [None] * (len(commands) + len(then))
    sinks = {}
    poller = select.poll()

    def launch(i, command, argv, cwd, env, out, err):
        # Pipes are created close-on-exec: only the command's own stdout and stderr reach it.
        r_out, w_out = os.pipe()
        try:
            r_err, w_err = os.pipe()
        except OSError:
            os.close(r_out)
            os.close(w_out)
            raise
        try:
            sandbox.acting_on()
            pid, status = start(sandbox, command, argv, cwd, env, stdin_fd, w_out, w_err, home, err)
        except BaseException:
            os.close(r_out)
            os.close(r_err)
            raise
        finally:
            os.close(w_out)
            os.close(w_err)
        if pid is None:
            os.close(r_out)
            os.close(r_err)
            results[i] = (status, True, False, t0, time.time())
            return None
        sinks[r_out], sinks[r_err] = out, err
        reading.update((r_out, r_err))
        poller.register(r_out, select.POLLIN)
        poller.register(r_err, select.POLLIN)
        try:
            pidfd = os.pidfd_open(pid)
            pidfds.add(pidfd)
            poller.register(pidfd, select.POLLIN)
        except (AttributeError, OSError):
            pidfd = None
        started.append([i, pid, pidfd, False])
        return started[-1]

    def abandon():
        # Nothing started may outlive a failure to start the rest.
        sandbox.acting_on()
        for _, pid, _, _ in started:
            kill_group(pid, SIGKILL)
        if started:
            sandbox.sweep()
        for fd in reading | pidfds:
            os.close(fd)
        for _, pid, _, _ in started:
            os.waitpid(pid, 0)

    # The descriptors open: a number closed may come back for a command started after.
    reading, pidfds = set(), set()
    try:
        for i, c in enumerate(commands):
            launch(i, *c[:6])
            if results[i] is not None and i in then_at:
                # A command that could not start (bash's message, its status) is followed at once.
                launch(then_at[i], *commands[i][6])
    except BaseException:
        abandon()
        raise
    if not started:
        return results
    running = list(started)
    deadline = t0 + timeout_s
    kill_at = None
    timed_out = False
    while running or reading:
        now = time.time()
        if running and not timed_out and now >= deadline:
            timed_out = True
            sandbox.acting_on()
            for proc in running:
                proc[3] = True
                kill_group(proc[1], SIGTERM)
            kill_at = now + grace_s
        if running and kill_at is not None and now >= kill_at:
            sandbox.acting_on()
            for proc in running:
                kill_group(proc[1], SIGKILL)
            kill_at = None
        if not running:
            wait = None
        else:
            until = deadline if not timed_out else kill_at if kill_at is not None else now + 0.05
            wait = max(0, int((until - now) * 1000) + 1)
            if any(proc[2] is None for proc in running):
                wait = min(wait, 10)
            if init:
                wait = min(wait, 500)
                reap_orphans({proc[1] for proc in started})
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
        if not running:
            continue
        for proc in [p for p in running if exited(p[1])]:
            running.remove(proc)
            # Whatever the command left running ends with it: its group at once, and once the others
            # have exited too, every process of the sandbox's uid (children that left the group would
            # hold the pipes open).
            sandbox.acting_on(proc[1])
            kill_group(proc[1], SIGKILL)
            if proc[2] is not None:
                poller.unregister(proc[2])
                os.close(proc[2])
                pidfds.discard(proc[2])
            if proc[0] in then_at and not timed_out:
                try:
                    follow = launch(then_at[proc[0]], *commands[proc[0]][6])
                except BaseException:
                    abandon()
                    raise
                if follow is not None:
                    running.append(follow)
        if not running:
            # Counted with the exit just before.
            sandbox.sweep()
    raws = [(proc, os.waitpid(proc[1], 0)[1]) for proc in started]
    if init:
        reap_orphans(None)
    t1 = time.time()
    for proc, raw in raws:
        status = -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)
        results[proc[0]] = (status, status >= 0 and not proc[3], proc[3], t0, t1)
    for j in then_at.values():
        if results[j] is None:
            # Not started: the command before it ran out of time.
            results[j] = (-SIGKILL, False, True, t0, t1)
    return results


def parse_env(blob):
    # NAME=value pairs, each ended by NUL.
    env = {}
    for item in blob.split(b'\0'):
        if item:
            k, _, v = item.partition(b'=')
            env[k] = v
    return env


def exit_code(status, timed_out):
    # 124 for a timeout, 128 + signal for a command killed otherwise, else its own code.
    return 124 if timed_out else 128 - status if status < 0 else status
