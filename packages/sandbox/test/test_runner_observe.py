"""observe.py's verdict on a read from the two looks at the sandbox's threads (packages/sandbox/runner/observe.py):
which changes are tampering, which leave the read unjudged, and which are none. The looks are made up here;
the real ones, beside hostile and honest processes in a sandbox, are in red-team-observer.int.test.ts and
session-observe.int.test.ts."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'runner'))
import observe  # noqa: E402 (after the runner's directory is put on the path)

UID = 10001


def thread(pid, state=b'T', switches=(5, 2), start=100, exiting=False, killed=False):
    """A thread as /proc shows it: its stat (state, flags, start time) and its status (signals pending, counts)."""
    flags = observe.PF_EXITING if exiting else 0
    rest = [state, b'1', b'1', b'1', b'0', b'-1', b'%d' % flags] + [b'0'] * 12 + [b'%d' % start, b'0']
    stat = b'%d (py (a) b) ' % pid + b' '.join(rest)
    status = (b'Name:\tpy\nState:\t%s\nSigPnd:\t%016x\nShdPnd:\t0000000000004000\nvoluntary_ctxt_switches:\t%d\n'
              b'nonvoluntary_ctxt_switches:\t%d\n' % (state, 0x100 if killed else 0, switches[0], switches[1]))
    return observe.Thread(pid, stat, status)


@pytest.fixture
def parents(monkeypatch):
    """New processes' parents, by pid: the sandbox's uid or root's."""
    owners = {}
    monkeypatch.setattr(observe, 'parent_of', lambda pid: pid + 1000)
    monkeypatch.setattr(observe, 'uid_of', lambda pid: owners.get(pid - 1000))
    return owners


def judged(before, after):
    v = observe.verdict(UID, before, after)
    return v and v[0]


def test_threads_that_stayed_stopped_let_the_read_through():
    before = {10: thread(10), 11: thread(10, b't'), 12: thread(12, b'Z')}
    assert judged(before, dict(before)) is None
    # A zombie reaped meanwhile (its parent is root's, the runner or init) ran nothing.
    assert judged(before, {10: thread(10), 11: thread(10, b't')}) is None


def test_a_stopped_thread_that_ran_is_tampering():
    before = {10: thread(10), 11: thread(10)}
    assert judged(before, {10: thread(10), 11: thread(10, switches=(7, 2))}) == observe.TAMPERED
    assert judged(before, {10: thread(10), 11: thread(10, switches=(5, 3))}) == observe.TAMPERED
    assert judged(before, {10: thread(10), 11: thread(10, b'S', switches=(5, 2))}) == observe.TAMPERED
    assert judged(before, {10: thread(10), 11: thread(10, b'R')}) == observe.TAMPERED


def test_one_voluntary_switch_of_a_thread_still_stopped_leaves_the_read_unjudged():
    # A thread preempted after setting itself stopped shows T before it switches out; so does one that
    # was continued and stopped itself again. Another thread's run is still tampering.
    before = {10: thread(10), 11: thread(10)}
    assert judged(before, {10: thread(10), 11: thread(10, switches=(6, 2))}) == observe.UNOBSERVED
    assert judged(before, {10: thread(10, b'R'), 11: thread(10, switches=(6, 2))}) == observe.TAMPERED


def test_a_thread_made_by_a_process_of_the_uid_is_tampering(parents):
    before = {10: thread(10)}
    assert judged(before, {10: thread(10), 11: thread(10)}) == observe.TAMPERED
    parents[20] = b'10001'
    assert judged(before, {10: thread(10), 20: thread(20)}) == observe.TAMPERED
    # One that root's process made (the uid is not the agent's alone to take) is not judged.
    parents[21] = b'0'
    assert judged(before, {10: thread(10), 21: thread(21)}) == observe.UNOBSERVED


def test_a_thread_that_died_leaves_the_read_unjudged():
    before = {10: thread(10), 11: thread(11)}
    assert judged(before, {10: thread(10)}) == observe.UNOBSERVED
    assert judged(before, {10: thread(10), 11: thread(11, b'Z', switches=(6, 2))}) == observe.UNOBSERVED
    assert judged(before, {10: thread(10), 11: thread(11, b'R', exiting=True)}) == observe.UNOBSERVED
    # A SIGKILL wakes a stopped thread, which runs only to exit.
    assert judged(before, {10: thread(10), 11: thread(11, b'R', killed=True)}) == observe.UNOBSERVED
    # Its tid again, for another thread (a later start): the first died, the second is new.
    assert judged(before, {10: thread(10), 11: thread(11, start=200)}) == observe.UNOBSERVED
    # A death can explain another's run (its process group orphaned, the kernel continues it).
    assert judged(before, {10: thread(10, b'S')}) == observe.UNOBSERVED


def test_a_thread_that_had_not_stopped_is_judged_only_if_unchanged():
    before = {10: thread(10), 11: thread(11, b'D'), 12: thread(12, b'R', exiting=True), 13: thread(13, killed=True)}
    assert judged(before, dict(before)) is None
    # A vfork's parent that stopped once its call returned cannot be told from one continued meanwhile.
    assert judged(before, {**before, 11: thread(11, b'T', switches=(6, 2))}) == observe.UNOBSERVED
    assert judged(before, {10: thread(10), 11: thread(11, b'D')}) == observe.UNOBSERVED
    # Unless the threads that had stopped say more: still unjudged, as an exit may continue them.
    assert judged(before, {10: thread(10, b'R'), 11: thread(11, b'T', switches=(6, 2)),
                           12: before[12]}) == observe.UNOBSERVED
