"""observe.py's verdict on a read from the two looks at the sandbox's threads (packages/sandbox/runner/observe.py):
which changes are tampering, which leave the read unjudged, and which are none. The looks are made up here;
the real ones, beside hostile and honest processes in a sandbox, are in red-team-observer.int.test.ts and
session-observe.int.test.ts."""
import os
import sys
import threading

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


def judged(before, after, from_outside=False):
    v = observe.verdict(before, after, from_outside)
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


def test_a_thread_made_meanwhile_is_tampering_unless_the_runner_started_processes():
    before = {10: thread(10)}
    assert judged(before, {10: thread(10), 11: thread(10)}) == observe.TAMPERED
    # A process whose parent has exited is re-parented to root's: it was still made by the uid's.
    assert judged(before, {10: thread(10), 20: thread(20)}) == observe.TAMPERED
    assert judged(before, {10: thread(10), 20: thread(20)}, from_outside=True) == observe.UNOBSERVED


def test_a_thread_that_died_is_tampering_unless_killed_from_outside():
    # Under the stop only a process of the uid that ran can kill a stopped thread, or be continued and exit.
    before = {10: thread(10), 11: thread(11)}
    deaths = [{10: thread(10)}, {10: thread(10), 11: thread(11, b'Z', switches=(6, 2))},
              {10: thread(10), 11: thread(11, b'R', exiting=True)}, {10: thread(10), 11: thread(11, b'R', killed=True)},
              # Its tid again, for another thread (a later start): the first died, the second is new.
              {10: thread(10), 11: thread(11, start=200)}]
    for after in deaths:
        assert judged(before, after) == observe.TAMPERED
        # The memory limit or the runner killed it (a SIGKILL wakes a stopped thread, which runs only to exit).
        assert judged(before, after, from_outside=True) == observe.UNOBSERVED
    # A continued process that exits after its work, or kills a stopped sibling, leaves the others' runs counted.
    assert judged(before, {10: thread(10, b'S')}) == observe.TAMPERED
    # An outside death explains another's run: its process group orphaned, the kernel continues it.
    assert judged(before, {10: thread(10, b'S')}, from_outside=True) == observe.UNOBSERVED


def test_only_the_memory_limit_or_the_runner_acting_on_its_own_explains_a_death():
    before = {10: thread(10), 11: thread(11), 12: thread(12, b'Z')}
    first = ([b'oom_kill 0\n'], b'', 8)
    assert not observe.from_outside(before, first, ([b'oom_kill 0\n'], b'', 8))
    assert observe.from_outside(before, first, ([b'oom_kill 1\n'], b'', 8))
    # Its timeout kill, a start, a sweep after a command that had exited before the stop.
    assert observe.from_outside(before, first, ([b'oom_kill 0\n'], b'.\n', 10))
    assert observe.from_outside(before, first, ([b'oom_kill 0\n'], b'exit 12\n', 16))
    assert observe.from_outside(before, first, ([b'oom_kill 0\n'], b'exit 13\n', 16))
    # Its kills after the exit of a command's process that was stopped: continued, it exited by itself.
    assert not observe.from_outside(before, first, ([b'oom_kill 0\n'], b'exit 11\n', 16))


def test_a_thread_that_had_not_stopped_is_judged_only_if_unchanged():
    before = {10: thread(10), 11: thread(11, b'D'), 12: thread(12, b'R', exiting=True), 13: thread(13, killed=True)}
    assert judged(before, dict(before)) is None
    # A vfork's parent that stopped once its call returned cannot be told from one continued meanwhile.
    assert judged(before, {**before, 11: thread(11, b'T', switches=(6, 2))}) == observe.UNOBSERVED
    assert judged(before, {10: thread(10), 11: thread(11, b'D')}) == observe.UNOBSERVED
    # Unless the threads that had stopped say more: still unjudged, as an exit may continue them.
    assert judged(before, {10: thread(10, b'R'), 11: thread(11, b'T', switches=(6, 2)),
                           12: before[12]}) == observe.UNOBSERVED
    # A vfork's parent woken by its child, which was continued and exited: nothing but tampering explains it.
    assert judged({10: thread(10), 11: thread(11, b'D')}, {11: thread(11, b'T', switches=(6, 2))}) == observe.TAMPERED


def test_a_read_out_of_time_ends_the_observers_processes_before_the_look_after_and_forgets_the_state(monkeypatch):
    # The reader's git still runs at the deadline: a thread continued after the look could make it run a
    # filter that writes objects into the reads' state, so it ends first, and the state is forgotten.
    done = []
    monkeypatch.setattr(observe, 'outside_acts', lambda since=None: ([], b'', 0))
    monkeypatch.setattr(observe, 'stop_every', lambda uid: {})
    monkeypatch.setattr(observe, 'as_uid', lambda uid, act: 4242)
    monkeypatch.setattr(observe, 'wait_until', lambda pid, deadline: None)
    monkeypatch.setattr(observe, 'signal_every', lambda uid, sig: done.append(('signal', uid, sig)))
    monkeypatch.setattr(observe, 'threads', lambda uid: done.append(('look', uid)) or {})
    monkeypatch.setattr(observe, 'forget_state', lambda uid: done.append(('forget', uid)))
    monkeypatch.setattr(observe.os, 'waitpid', lambda pid, flags: done.append(('reap', pid)) or (pid, 0))
    monkeypatch.setattr(observe.os, 'setgroups', lambda groups: None)
    monkeypatch.setattr(observe, 'one_at_a_time', lambda: None)
    assert observe.main(['10001', '10002', '', '0', '1', '0.1']) == 124
    assert done.index(('signal', 10002, observe.SIGKILL)) < done.index(('reap', 4242)) < done.index(('look', 10001))
    assert ('forget', 10002) in done


def stop_verdict(monkeypatch, look):
    """stop_every's verdict when the n-th look at the threads finds look(n), a look every 10 ms."""
    clock, looks = [0.0], [0]
    monkeypatch.setattr(observe, 'signal_every', lambda uid, sig: None)
    monkeypatch.setattr(observe.time, 'monotonic', lambda: clock[0])
    monkeypatch.setattr(observe.time, 'sleep', lambda s: clock.__setitem__(0, clock[0] + 0.01))

    def threads(uid):
        looks[0] += 1
        return look(looks[0])

    monkeypatch.setattr(observe, 'threads', threads)
    try:
        observe.stop_every(UID)
    except observe.Unsettled as e:
        return e.args[0]


def test_a_thread_never_seen_stopped_is_slow_not_tampering(monkeypatch):
    # In one long system call that checks only for fatal signals, preempted again and again.
    assert stop_verdict(monkeypatch, lambda n: {10: thread(10, b'R', switches=(5, n))}) == observe.UNOBSERVED


def test_a_thread_seen_stopped_then_running_after_two_sigstops_is_tampering(monkeypatch):
    look = (lambda n: {10: thread(10, b'T' if n % 4 == 0 else b'R', switches=(5, n))})
    assert stop_verdict(monkeypatch, look) == observe.TAMPERED


def test_an_observation_waits_for_another_to_end(tmp_path):
    lock = str(tmp_path / 'observing')
    first = observe.one_at_a_time(lock)
    second = threading.Thread(target=observe.one_at_a_time, args=(lock,), daemon=True)
    second.start()
    second.join(0.2)
    assert second.is_alive()
    os.close(first)
    second.join(5)
    assert not second.is_alive()


def test_a_lock_file_of_another_uid_is_not_waited_for(tmp_path):
    lock = tmp_path / 'observing'
    lock.touch()
    os.chown(lock, 10001, 10001)
    assert observe.one_at_a_time(str(lock)) is None
