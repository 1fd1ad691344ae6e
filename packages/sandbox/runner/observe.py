"""The observer's read of an agent's repository: repo_state.py's, run on its own beside a running agent.

Usage: observe.py <sandbox uid> <observer uid> <previous tree> <diff bytes> <timeout s> <kill grace s>, in the
repository's directory, with the read's environment; or observe.py --thaw <sandbox uid> <observer uid>.
Sandbox.observeRepoState starts it (docker-observe.ts) as root, holding only the sandbox's capabilities
(SETUID, SETGID, KILL), while a third-party agent's one long request still runs; it prints what the
session runner's S request prints, and exits 124 when the read ran out of time.

The read sets every filter key of the repository and its submodules empty, having looked for them first;
the agent's processes still run, and one that adds a filter key (a submodule, an include) between that
look and git's read of the configuration would have its program run as the observer. So the whole read
happens with every process of the sandbox's uid stopped: a child that becomes that uid sends SIGSTOP to
-1, which reaches every process of the uid at once and none of another (kill(2): none can fork past
it; the runner and this process are root, the reader the observer's uid), and the read starts once
each of their threads has stopped (one inside a system call stops when the call returns). The reader
is a child that becomes the observer's uid (no capability left) and runs the read with git's processes
only. After it, whatever it left of the observer's uid is killed, and a child of the sandbox's uid
sends SIGCONT to -1: always, whether the read ended, ran out of time or failed. Nothing of the sandbox's
uid can signal or trace this process (another uid's), so only its own death skips the SIGCONT: if the
host gives up waiting, or this exits otherwise than 0 or 124, it runs --thaw, which does the same two steps.

What the stop does not cover, or changes: a process the agent had stopped itself is continued by the
SIGCONT (the agent can also see each observation, by a SIGCONT handler or its children's stop
reports); a thread inside an uninterruptible system call stops when the call returns, and is read
beside after D_WAIT_S (a vfork()'s parent waits so until its stopped child execs: harmless, and
common, as glibc's posix_spawn and Python's subprocess use vfork); io_uring, whose operations
queued in the kernel could complete under the stop, is refused to every command of an agent session
(session.py, a seccomp filter: ENOSYS); a ptrace tracee is held by its tracer, itself stopped.
"""
import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import SIGKILL, Sandbox, emit  # noqa: E402
from repo_state import read_repo_state  # noqa: E402

SIGCONT, SIGSTOP = 18, 19
# How long the read waits for every thread of the sandbox's uid to have stopped before it reads anyway:
# a thread that runs or sleeps stops as soon as it is scheduled; one in an uninterruptible wait (D)
# stops when its call returns, which on the sandbox's tmpfs takes microseconds, unless it waits for
# what the stop holds (a vfork's parent for its child).
STOP_WAIT_S = 0.5
D_WAIT_S = 0.05


def as_uid(uid, act):
    # A child alone takes the uid (real, effective and saved: kill(-1) then reaches that uid's
    # processes, and only those) and runs act, whose result is its exit status; this process's ids never change.
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            code = act()
        except BaseException as e:
            os.write(2, b'gitbench observer: %r\n' % e)
        finally:
            os._exit(code)
    return pid


def signal_every(uid, sig):
    # Every process of the uid but the sender gets sig; none alive (ESRCH) is no error.
    def send():
        try:
            os.kill(-1, sig)
        except OSError:
            pass
        return 0

    os.waitpid(as_uid(uid, send), 0)


def unstopped(uid):
    # The states of the threads of the uid's processes (those kill(-1) reaches: real or saved uid)
    # that have not stopped yet.
    mine = str(uid)
    states = []
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/' + pid + '/status') as f:
                ids = next(line for line in f if line.startswith('Uid:')).split()
            if mine not in (ids[1], ids[3]):
                continue
            for tid in os.listdir('/proc/' + pid + '/task'):
                with open('/proc/' + pid + '/task/' + tid + '/stat', 'rb') as f:
                    stat = f.read()
                state = stat[stat.rfind(b')') + 2:][:1]
                if state not in b'TtZX':
                    states.append(state)
        except (OSError, StopIteration):
            continue  # gone meanwhile
    return states


def wait_stopped(uid):
    started = time.monotonic()
    while True:
        states = unstopped(uid)
        waited = time.monotonic() - started
        if not states or waited >= STOP_WAIT_S or (waited >= D_WAIT_S and set(states) == {b'D'}):
            return
        time.sleep(0.001)


def wait_until(pid, deadline):
    # The child's exit status, or None if it is still running at the deadline.
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            return None
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            time.sleep(0.005)
            continue
        try:
            select.select([fd], [], [], max(0, deadline - time.monotonic()))
        finally:
            os.close(fd)


def thaw(sandbox_uid, observer_uid):
    # The observer's processes end before the sandbox's go on: no git of the read outlives the stop.
    signal_every(observer_uid, SIGKILL)
    signal_every(sandbox_uid, SIGCONT)


def read(previous_tree, diff_bytes, timeout_s, grace_s):
    home = os.open('.', os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_RDONLY)
    text, timed_out = read_repo_state(Sandbox(None), os.getcwdb(), dict(os.environb), previous_tree, diff_bytes,
                                      timeout_s, grace_s, home, devnull, False)
    emit(text)
    return 124 if timed_out else 0


def main(args):
    if args[0] == '--thaw':
        thaw(int(args[1]), int(args[2]))
        return 0
    sandbox_uid, observer_uid = int(args[0]), int(args[1])
    previous_tree, diff_bytes = os.fsencode(args[2]), int(args[3])
    timeout_s, grace_s = float(args[4]), float(args[5])
    # The read's own deadline, then its grace to kill its git processes, then this one's to end it.
    deadline = time.monotonic() + timeout_s + 2 * grace_s
    os.setgroups([])
    status = None
    try:
        signal_every(sandbox_uid, SIGSTOP)
        wait_stopped(sandbox_uid)
        reader = as_uid(observer_uid, lambda: read(previous_tree, diff_bytes, timeout_s, grace_s))
        status = wait_until(reader, deadline)
    finally:
        thaw(sandbox_uid, observer_uid)
    if status is None:
        os.waitpid(reader, 0)
        return 124
    return status


sys.exit(main(sys.argv[1:]))
