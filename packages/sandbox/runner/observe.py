"""The observer's read of an agent's repository: repo_state.py's, run on its own beside a running agent.

Usage: observe.py <sandbox uid> <observer uid> <previous tree> <diff bytes> <timeout s> <kill grace s>, in the
repository's directory, with the read's environment; or observe.py --thaw <sandbox uid> <observer uid>.
Sandbox.observeRepoState starts it (docker-observe.ts) as root, holding only the sandbox's capabilities
(SETUID, SETGID, KILL), while a third-party agent's one long request still runs; it prints what the
session runner's S request prints, and exits 124 when the read ran out of time, TAMPERED or UNOBSERVED
(below) with nothing printed and the reason on stderr.

The read sets every filter key of the repository and its submodules empty, having looked for them first;
the agent's processes still run, and one that adds a filter key (a submodule, an include) between that
look and git's read of the configuration would have its program run as the observer. So the whole read
happens with every process of the sandbox's uid stopped: a child that becomes that uid sends SIGSTOP to
-1, which reaches every process of the uid at once and none of another (kill(2): none can fork past
it; the runner and this process are root, the reader the observer's uid), and the read starts once
each of their threads has stopped (one inside a system call stops when the call returns). The reader
is a child that becomes the observer's uid (no capability left) and runs the read with git's processes
only. After it, whatever it left of the observer's uid is killed, and waited for, before the look after
the read (below; a read that ran out of time also forgets the reads' object store); then a child of the
sandbox's uid sends SIGCONT to -1: always, whether the read ended, ran out of time or failed. Nothing of
the sandbox's uid can signal or trace this process (another uid's), so only its own death skips the
SIGCONT: if the host gives up waiting, or this exits otherwise than with a status of its own, it runs
--thaw, which does the same two steps. Two observations of one container never overlap (a lock only
root can take, OBSERVING): one's SIGCONT would continue the sandbox's processes under the other's read.

The kernel can continue a stopped process with no process of the sandbox's uid running to ask it: a
SIGCONT it sends for an inotify watch, a lease or dnotify (F_SETSIG), a POSIX timer, mq_notify, a
parent's death, a clone's exit signal, a process group orphaned by an exit. Refusing each would leave
the next, so the stop is checked instead, with the kernel's own counts. Once every thread of the uid
has stopped (two looks SETTLE_S apart agree), each one's state and context switches (voluntary and
not) are kept, and looked at again after the read, before the SIGCONT. A stopped thread runs again only
when continued or killed, and one that ran has switched out since (a count moved), still runs, or has
exited. The read's output waits in a memfd until then:
- TAMPERED: a thread stopped before the read is no longer stopped, its counts moved or it died, or a
  thread appeared (a process re-parented when its parent exits was still made by the uid), and nothing
  below explains it; or a thread still runs or sleeps STOP_WAIT_S after the first SIGSTOP, having run
  on after two of them: seen stopped at one look and not at a later one, twice (sent every RESEND_S:
  an orphaned process group is continued once; a thread never seen stopped is only slow). Nothing is
  printed and every process of the uid is killed instead of continued: its attempt ends as tampering.
- UNOBSERVED: what cannot be judged, and exactly this: the memory limit (the cgroup's oom_kill count)
  or the session runner (its count of its own kills and starts of the uid's processes, common.RUNNER_ACTS:
  its timeout kill, its sweep; not its kills after the exit of a command's process that was stopped at
  the first look, continued since) acted on the uid during the read, as a death from outside can
  continue an orphaned process group; a thread that had not stopped (in D past D_WAIT_S, or dying: exiting, or a
  SIGKILL pending) changed (a D one only if no stopped thread ran, died or was made: once returned, it
  stops at once); a thread still stopped switched out once, voluntarily (as one preempted
  between setting itself stopped and switching out does when it next runs, on a preemptible kernel);
  or the threads still waited to run at STOP_WAIT_S (one in a long system call, never seen stopped).
  Nothing is printed, and the reads' object store, which a program run as the observer's uid could have
  written, is removed.
An honest process cannot run under the stop, so TAMPERED meets only one that used the kernel against it:
a process that stopped itself stays stopped through the read, a vfork's parent in D for its stopped child
(glibc's posix_spawn, Python's subprocess) does not change, and what the host's limits or an exit
already under way do to them is UNOBSERVED at worst.

What the stop does not cover, or changes: a process the agent had stopped itself is continued by the
SIGCONT (the agent can also see each observation, by a SIGCONT handler or its children's stop
reports); a thread inside an uninterruptible system call stops when the call returns, and is read
beside after D_WAIT_S, judged as above; io_uring, whose operations queued in the kernel could complete
under the stop, is refused to every command of an agent session (session.py, a seccomp filter:
ENOSYS); a ptrace tracee is held by its tracer, itself stopped.
"""
import fcntl
import os
import select
import shutil
from stat import S_ISREG
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import RUNNER_ACTS, SIGKILL, Sandbox, emit  # noqa: E402
from repo_state import read_repo_state  # noqa: E402

SIGCONT, SIGSTOP = 18, 19
# How long the read waits for every thread of the sandbox's uid to have stopped: a thread that runs or
# sleeps stops as soon as it is scheduled; one in an uninterruptible wait (D) stops when its call returns,
# which on the sandbox's tmpfs takes microseconds, unless it waits for what the stop holds (a vfork's
# parent for its child), so the read starts beside D threads after D_WAIT_S. Past STOP_WAIT_S a thread that
# still runs or sleeps was continued after each stop (SIGSTOP is sent again every RESEND_S, as a process
# group orphaned by an exit is continued once by the kernel).
STOP_WAIT_S = 0.5
D_WAIT_S = 0.05
RESEND_S = 0.1
# Two looks at the threads this far apart must agree before the read: a thread that has just set itself
# stopped still switches out once.
SETTLE_S = 0.003
# observe.py's verdicts besides 0 (read) and 124 (read, out of time): the read's output is withheld.
TAMPERED = 86
UNOBSERVED = 87
PF_EXITING = 0x4
# Root's alone (0600: no process of the sandbox's uid can open it, so none can hold its lock).
OBSERVING = '/tmp/.gitbench-observing'


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


class Thread:
    """One thread of the sandbox's uid as the kernel counts it: a stopped thread runs again only when
    continued (SIGCONT) or killed, and one that ran since has switched out (a count moved), still runs,
    or has exited. `switches` is (voluntary, involuntary)."""
    __slots__ = ('pid', 'start', 'state', 'switches', 'dying')

    def __init__(self, pid, stat, status):
        fields = stat[stat.rfind(b')') + 2:].split()
        self.pid = pid
        self.state = fields[0]
        self.start = fields[19]
        lines = dict(line.split(b':', 1) for line in status.splitlines() if b':' in line)
        self.switches = (int(lines[b'voluntary_ctxt_switches']), int(lines[b'nonvoluntary_ctxt_switches']))
        # Exiting, or a SIGKILL pending (which wakes a stopped thread: it runs only to exit).
        pending = int(lines[b'SigPnd'], 16) | int(lines[b'ShdPnd'], 16)
        self.dying = bool(int(fields[6]) & PF_EXITING or pending & 1 << SIGKILL - 1)

    def __eq__(self, other):
        return (self.pid, self.start, self.state, self.switches, self.dying) == \
            (other.pid, other.start, other.state, other.switches, other.dying)

    @property
    def stopped(self):
        return self.state in b'TtZX'

    @property
    def dead(self):
        return self.state in b'ZX' or self.dying


def threads(uid):
    # Every thread of the uid's processes (those kill(-1) reaches: real or saved uid), by tid.
    mine = str(uid).encode()
    found = {}
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/' + pid + '/status', 'rb') as f:
                ids = next(line for line in f if line.startswith(b'Uid:')).split()
            if mine not in (ids[1], ids[3]):
                continue
            for tid in os.listdir('/proc/' + pid + '/task'):
                task = '/proc/' + pid + '/task/' + tid
                with open(task + '/stat', 'rb') as f:
                    stat = f.read()
                with open(task + '/status', 'rb') as f:
                    found[int(tid)] = Thread(int(pid), stat, f.read())
        except (OSError, StopIteration, IndexError, ValueError, KeyError):
            continue  # gone meanwhile
    return found


class Unsettled(Exception):
    pass


def stop_every(uid):
    """Stops every process of the uid and returns its threads once two looks SETTLE_S apart agree and
    each has stopped, but for those in D or dying after D_WAIT_S. Raises Unsettled with a verdict
    (TAMPERED or UNOBSERVED) and its reason when they have not by STOP_WAIT_S."""
    started = time.monotonic()
    signal_every(uid, SIGSTOP)
    seen = None
    # Per thread, the SIGSTOPs after which it ran on: seen stopped at one look, and not at a later one
    # (once after one can be a process group orphaned meanwhile, which the kernel continues once). A
    # thread never seen stopped is only slow: one in a long system call that checks only for fatal
    # signals (copy_file_range on tmpfs) is preempted, its involuntary count moving, until it returns.
    ran_on = {}
    stopped_at, ran_since_send = set(), set()
    sends = 1
    while True:
        now = threads(uid)
        for tid, t in now.items():
            if t.stopped:
                stopped_at.add((tid, t.start))
            elif (tid, t.start) in stopped_at and not t.dying and t.state != b'D':
                stopped_at.discard((tid, t.start))
                ran_since_send.add(tid)
        waited = time.monotonic() - started
        moving = [t for t in now.values() if not t.stopped]
        settled = all((t.state == b'D' or t.dying) and waited >= D_WAIT_S for t in moving)
        if settled and now == seen:
            return now
        last = waited >= STOP_WAIT_S
        if last or waited >= sends * RESEND_S:
            for tid in ran_since_send:
                ran_on[tid] = ran_on.get(tid, 0) + 1
            ran_since_send.clear()
            if last:
                ran = [tid for tid, n in ran_on.items() if n > 1 and tid in now and not now[tid].stopped]
                if ran:
                    raise Unsettled(TAMPERED, 'threads %s of the sandbox\'s uid ran on after %d SIGSTOPs in %.1f s'
                                    % (ran[:5], sends, waited))
                raise Unsettled(UNOBSERVED, 'the sandbox\'s processes had not stopped after %.1f s' % waited)
            signal_every(uid, SIGSTOP)
            sends += 1
        seen = now if settled else None
        time.sleep(SETTLE_S if settled else 0.001)


def verdict(before, after, from_outside):
    """None when no thread of the uid ran during the read, else (TAMPERED or UNOBSERVED, reason).

    A thread stopped at the first look can only run again if continued, or die if killed; and none of
    the uid's processes is left running to do either. So one that ran (it is no longer stopped or a
    count moved), died, or a thread that appeared (whoever its parent is now: a process re-parented
    when its parent exits keeps nothing of who made it) is tampering, unless `from_outside`: the
    memory limit or the session runner (its timeout kill, its sweep, a command it started) killed or
    started processes of the uid meanwhile, and a process's end continues an orphaned process group.
    A thread exiting at the first look explains them too; one in D does not (returned, it stopped
    at once, its SIGSTOP pending: a vfork's parent woken by a continued child is tampering).
    Not judged, the read untrusted: that, a thread that had not stopped (D, dying) changed, or a stopped
    thread switched out once, voluntarily, and is stopped: as one preempted between setting itself
    stopped and switching out does once it runs again (a preemptible kernel; a continued thread that
    stops itself again does so too)."""
    ran, made, died, unsettled, once = [], [], [], [], []
    for tid, t in after.items():
        first = before.get(tid)
        if first is None or first.start != t.start:
            made.append(tid)
    for tid, first in before.items():
        t = after.get(tid)
        if t is not None and t == first or first.state in b'ZX':
            continue
        if not first.stopped or first.dying:
            unsettled.append(tid)
        elif t is None or t.start != first.start or t.dead:
            died.append(tid)
        elif t.state == first.state and t.switches == (first.switches[0] + 1, first.switches[1]):
            once.append(tid)
        else:
            ran.append(tid)
    # A thread exiting at the first look can orphan a process group the kernel then continues; one in D
    # that has since returned stopped at once (its SIGSTOP pending) and ran nothing of its own.
    if (ran or made or died) and not from_outside and not any(before[tid].dying for tid in unsettled):
        return TAMPERED, 'threads %s of the sandbox\'s uid ran during the read (%s)' % (
            (ran + made + died)[:5], 'continued' if ran else 'made meanwhile' if made else
            'died, and neither the memory limit nor the runner killed any')
    if unsettled:
        return UNOBSERVED, 'threads %s of the sandbox\'s uid that had not stopped changed' % unsettled[:5]
    if ran or made or died or once:
        return UNOBSERVED, 'threads %s of the sandbox\'s uid ran, died, were made or switched out once during' \
            ' the read, which the memory limit or the runner killed or started processes of' % (
                died + made + once + ran)[:5]
    return None


def outside_acts(since=None):
    """What can kill or start processes of the sandbox's uid from outside it: the memory limit's kills
    (the container's cgroup) and the session runner's acts since `since` (common.RUNNER_ACTS, root's own
    file), and where those end."""
    kills = []
    # cgroup v2, then v1 (where Docker mounts the memory controller on its own).
    for events in ('/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control'):
        try:
            with open(events, 'rb') as f:
                kills += [line for line in f if line.startswith(b'oom_kill ')]
        except OSError:
            pass
    acts, end = b'', None
    try:
        fd = os.open(RUNNER_ACTS, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            found = os.fstat(fd)
            if S_ISREG(found.st_mode) and found.st_uid == 0:
                end = found.st_size
                if since is not None and end > since:
                    acts = os.pread(fd, end - since, since)
        finally:
            os.close(fd)
    except OSError:
        pass
    return kills, acts, end


def from_outside(before, first, last):
    """Whether the memory limit or the session runner killed or started processes of the sandbox's uid
    between `first` and `last` (outside_acts). The runner's kills after a command's process exited do
    not count if that process was stopped at the first look: it was continued, and its exit is the
    sandbox's own doing (one that exited before the stop is a zombie or gone)."""
    if first[0] != last[0] or first[2] != last[2] and not last[1]:
        return True
    for act in last[1].splitlines():
        if not act.startswith(b'exit '):
            return True
        pid = int(act[5:])
        if not any(t.pid == pid and t.state in b'Tt' for t in before.values()):
            return True
    return False


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


def thaw(sandbox_uid, observer_uid, sig=SIGCONT):
    # The observer's processes end before the sandbox's go on: no git of the read outlives the stop.
    signal_every(observer_uid, SIGKILL)
    signal_every(sandbox_uid, sig)


def end_observer(observer_uid, reader, grace_s):
    # Kills every process of the observer's uid (the reader, when it is still running, and its git's) and
    # waits until none can run again: True once each has exited (a zombie runs nothing), False if one
    # has not a second past grace_s.
    signal_every(observer_uid, SIGKILL)
    if reader is not None:
        os.waitpid(reader, 0)
    deadline = time.monotonic() + grace_s + 1
    while any(t.state not in b'ZX' for t in threads(observer_uid).values()):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.001)
    return True


def one_at_a_time(path=OBSERVING):
    """Waits until no other observation of this container runs, and holds that until this process ends:
    one's thaw would continue the sandbox's processes under another's read, which would then judge an
    honest agent tampering (the host already sends one read at a time). A lock file the sandbox's uid
    made first is not trusted, and not needed: only its own reads could overlap."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    if os.fstat(fd).st_uid != os.geteuid():
        os.close(fd)
        return None
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def end_observations():
    # An observation the host gave up waiting for may still run: it ends before the sandbox's processes go
    # on, or its look after the read would find them continued and kill them as tampering. Its children
    # end too (one of the sandbox's uid may be about to send SIGSTOP); a process that names itself so is
    # the agent's own doing.
    me = os.getpid()
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open('/proc/' + pid + '/cmdline', 'rb') as f:
                argv = f.read().split(b'\0')[:5]
            if __file__.encode() in argv and b'--thaw' not in argv:
                os.kill(int(pid), SIGKILL)
        except OSError:
            continue


def forget_state(observer_uid):
    # A program that ran as the observer's uid during a read not let through may have left objects in
    # the reads' own object store, which later reads would take as written: the next read starts afresh.
    state = os.path.join(os.environ.get('TMPDIR') or '/tmp', '.gitbench-agent-state')

    def remove():
        shutil.rmtree(state, ignore_errors=True)
        return 0

    os.waitpid(as_uid(observer_uid, remove), 0)


def read(out, previous_tree, diff_bytes, timeout_s, grace_s):
    os.dup2(out, 1)
    home = os.open('.', os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_RDONLY)
    text, timed_out = read_repo_state(Sandbox(None), os.getcwdb(), dict(os.environb), previous_tree, diff_bytes,
                                      timeout_s, grace_s, home, devnull, False)
    emit(text)
    return 124 if timed_out else 0


def main(args):
    if args[0] == '--thaw':
        end_observations()
        thaw(int(args[1]), int(args[2]))
        return 0
    sandbox_uid, observer_uid = int(args[0]), int(args[1])
    previous_tree, diff_bytes = os.fsencode(args[2]), int(args[3])
    timeout_s, grace_s = float(args[4]), float(args[5])
    # The read's own deadline, then its grace to kill its git processes, then this one's to end it.
    deadline = time.monotonic() + timeout_s + 2 * grace_s
    os.setgroups([])
    one_at_a_time()
    # What the reader prints waits here until the stop is known to have held through the read.
    out = os.memfd_create('observation')
    status = judged = None
    try:
        acts = outside_acts()
        try:
            stopped = stop_every(sandbox_uid)
        except Unsettled as e:
            judged = e.args
        else:
            reader = as_uid(observer_uid, lambda: read(out, previous_tree, diff_bytes, timeout_s, grace_s))
            status = wait_until(reader, deadline)
            # Nothing of the read runs after the look: a thread continued then could still make its git
            # run a filter, unseen.
            ended = end_observer(observer_uid, reader if status is None else None, grace_s)
            after = threads(sandbox_uid)
            # Read after the look: the runner counts an act before it, so none that the look saw is missed.
            judged = verdict(stopped, after, from_outside(stopped, acts, outside_acts(acts[2]))) or (
                None if ended else (UNOBSERVED, 'the observer\'s processes had not ended after the read'))
    finally:
        # A tampering agent's processes end here, as killed: its attempt ends (a counted failure).
        thaw(sandbox_uid, observer_uid, SIGKILL if judged and judged[0] == TAMPERED else SIGCONT)
    if judged or status != 0:
        # A read that did not finish may have left a program's objects behind too.
        forget_state(observer_uid)
    if judged:
        kind = b'tampering' if judged[0] == TAMPERED else b'unobserved'
        os.write(2, b'gitbench observer: %s: %s\n' % (kind, judged[1].encode()))
        return judged[0]
    if status is None:
        status = 124
    os.lseek(out, 0, os.SEEK_SET)
    while os.sendfile(1, out, None, 1 << 20):
        pass
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
