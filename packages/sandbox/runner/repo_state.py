"""The repository's state after an agent's step, read inside the session runner (the S request).

It prints, byte for byte, what the engine's repository-state script (packages/engine/src/agent/
repo-state.ts, repoStateScript) prints, and the engine parses it the same way; a test runs both on the
same repositories and compares. Run here it starts only git's own processes: no bash, no cp, no wc or
head, and no second round trip for a script; the shell's tests and copies are done by the runner,
acting as the sandbox's uid, so they see and touch only what the sandbox's uid may. Every git process
is run as a command is (common.run_commands: the sandbox's uid, its own process group, and everything
of that uid killed after it), under one deadline for the whole read. Calls that need nothing of one
another run at once, and write-tree starts as soon as add has ended (two rounds of git's processes
before the diff, one where the session's memo knows where the repository is; not six in a row), and
the read of the filter keys is left out where no configuration file can hold one: the state printed is
the same. No program of the model's runs during the read: besides the look-ups' environment the engine
sends, the filter keys of the repository and of every submodule git looks into are set empty (the
submodules found by the scorer's guard, lookup-config.py). observe.py runs the same read beside a
third-party agent.
"""
import os
import stat
import time

from common import Sink, run_commands

MARK = b'\n@@gb:'
# Big enough for any section of a real repository; what passes it is counted and dropped.
SECTION_BYTES = 64 * 1024 * 1024
NO_LIMIT = 1 << 62


class TimedOut(Exception):
    pass


def _hex(text):
    return bytes(c for c in text if c in b'0123456789abcdef')


def read_repo_state(sandbox, cwd, env, previous_tree, diff_bytes, timeout_s, grace_s, home, devnull, init,
                    memo=None, reuse=True):
    """The script's stdout, and whether the read ran out of time (the engine then records no state).

    With a memo (repo_memo.py, the session runner's), a repository unchanged since the memo's last full
    read is answered with that read's output (unless reuse is false: the read is then a full one, kept
    in the memo), and only its diff against previous_tree is made anew.
    """
    out = []
    prev = _hex(previous_tree)
    gits = _git_runner(sandbox, time.time() + timeout_s, grace_s, home, devnull, init)
    try:
        kept = memo.answer(sandbox, cwd, env) if memo is not None and reuse else None
        if kept is not None:
            out.append(kept.printed)
            _diff(out, gits, prev, kept.tree, kept.tree_dir, kept.tree_env, diff_bytes)
            return b''.join(out), False
        located = memo.found if memo is not None and reuse else None
        taken = memo.before_read(env) if memo is not None else None
        facts = {}
        _read(out, gits, sandbox, cwd, env, facts, located)
        if 'tree' in facts:
            printed = b''.join(out)
            _diff(out, gits, prev, facts['tree'], facts['where'], facts['tree_env'], diff_bytes)
            if memo is not None:
                memo.after_read(sandbox, cwd, env, taken, facts, printed)
        return b''.join(out), False
    except TimedOut:
        return b''.join(out), True


def _git_runner(sandbox, deadline, grace_s, home, devnull, init):
    def gits(*calls):
        # Runs the git calls, each (args, where, stdout bytes kept, environment[, call after it]), at
        # once: they read what none of them writes. Returns per call, then per call after one (exit
        # status, stdout as $(...) would keep it: at most 'keep' bytes, then the total counted).
        left = deadline - time.time()
        if left <= 0:
            raise TimedOut()
        commands = [command(*c) for c in calls]
        results = run_commands(sandbox, commands, left, grace_s, home, devnull, init)
        if any(timed_out for _, _, timed_out, _, _ in results):
            raise TimedOut()
        sinks = [c[4] for c in commands] + [c[6][4] for c in commands if len(c) > 6]
        return [(r[0], sink) for r, sink in zip(results, sinks)]

    def command(args, where, keep, run_env, *then):
        # A call after which another starts (run_commands' seventh item), each result in turn.
        return (None, [b'git'] + args, where, run_env, Sink(keep, 0, NO_LIMIT), Sink(0, 0, NO_LIMIT)) + \
            tuple(command(*t) for t in then)
    return gits


def _read(out, gits, sandbox, cwd, env, facts, located):
    # The read up to its diff; what the diff and the memo need of it is left in facts. located: the git
    # directory and the top of the work tree, where the memo knows them.
    env = dict(env)
    env.update({b'GIT_OPTIONAL_LOCKS': b'0', b'GIT_PAGER': b'cat', b'LC_ALL': b'C'})

    def m(name):
        out.append(MARK + name + b'\n')

    st = (env.get(b'TMPDIR') or b'/tmp') + b'/.gitbench-agent-state'
    sandbox.acting_start()
    try:
        if not os.path.isdir(st + b'/objects'):
            try:
                os.makedirs(st + b'/objects', exist_ok=True)
            except OSError:
                pass  # as mkdir -p failing: the reads below go on, the tree is then empty
    finally:
        sandbox.acting_end()

    # The script's calls, as few after one another as their inputs allow: the refs and where the
    # repository is; then its status and the work tree added into a copy of its index; then the tree.
    # The refs are read before it is known whether there is a repository: without one, nothing of them
    # is printed. Neither they nor the location depend on the filter keys below. Where the memo knows
    # the location (found as git would find it again, repo_memo.py), the refs are read with the status.
    here = (cwd, SECTION_BYTES, env)
    refs_call = ([b'for-each-ref', b'--format=%(objectname) %(refname)'], cwd, SECTION_BYTES, dict(env))
    if located is not None:
        gd, top = located
    else:
        (status, loc), (_, refs) = gits(([b'rev-parse', b'--absolute-git-dir', b'--show-toplevel'],) + here, refs_call)
        loc = _subst(loc)
        if status == 0 and b'\n' in loc:
            gd, top = loc.split(b'\n', 1)
        else:
            [(status, loc)] = gits(([b'rev-parse', b'--absolute-git-dir'],) + here)
            if status != 0:
                m(b'nogit')
                return
            # No work tree (a bare repository, or inside .git): the script's top is where it runs.
            gd, top = _subst(loc), cwd

    # The copy of the index the work tree is added into (below), and whether the index may name a submodule.
    links = _copy_index(sandbox, gd + b'/index', st + b'/index')

    # status and add hash changed files through the filter drivers the repository's attributes name, and
    # a driver is a program of the model's: every filter key is set empty, which runs none (the script's
    # loop over git config --get-regexp, the same keys in the same order). Where no configuration git
    # reads here can hold a filter key, that read would find none, and is not made. Both also look into
    # every submodule (a repository the model embedded in the work tree is one) with a git of its own,
    # which reads the submodule's configuration and the command line's (git passes it down): each
    # submodule's filter keys are set empty as well, its git directory found where the scorer's guard
    # finds it (lookup-config.py) and its keys read by git with that directory.
    subs = _submodule_git_dirs(sandbox, top, gd) if links else []
    asks = [] if _no_filter_keys(sandbox, gd, env) else [env]
    for d in subs or []:
        if not _no_filter_keys(sandbox, d, env):
            asks.append({**env, b'GIT_DIR': d})
    if asks:
        found = gits(*[([b'config', b'--name-only', b'--get-regexp', b'^filter\\.'], cwd, SECTION_BYTES, e)
                       for e in asks])
        count = int(env.get(b'GIT_CONFIG_COUNT') or b'0')
        for _, keys in found:
            for key in _subst(keys).split(b'\n'):
                if key:
                    env[b'GIT_CONFIG_KEY_%d' % count], env[b'GIT_CONFIG_VALUE_%d' % count] = key, b''
                    count += 1
        env[b'GIT_CONFIG_COUNT'] = b'%d' % count

    # The work tree as a tree object, in an object store of our own (as the script's cd "$top"; a top
    # that cannot be entered leaves the script where it was).
    where = top if _enterable(sandbox, top) else cwd
    tree_env = dict(env)
    tree_env.update({b'GIT_OBJECT_DIRECTORY': st + b'/objects', b'GIT_ALTERNATE_OBJECT_DIRECTORIES': gd + b'/objects',
                     b'GIT_INDEX_FILE': st + b'/index'})
    here = (cwd, SECTION_BYTES, env)
    status_text = b''
    # Without the submodules (an index their finding cannot read, which git cannot either), neither
    # status nor add runs: what they would look into is not known.
    # The tree is written as soon as add has ended, while status may still run.
    tree_call = ([b'write-tree'], where, SECTION_BYTES, tree_env)
    calls = [] if subs is None else [([b'status', b'--porcelain=v2', b'--branch', b'--no-ahead-behind'],) + here,
                                     ([b'add', b'-A', b'.'], where, 0, tree_env, tree_call)]
    tree = None
    if calls or located is not None:
        done = gits(*calls + ([refs_call] if located is not None else []))
        if calls:
            status_text, tree = _subst(done[0][1]), done[-1][1]
        if located is not None:
            refs = done[-2 if calls else -1][1]
    more = [] if tree is not None else [tree_call]
    if status_text.startswith(b'# branch.oid '):
        m(b'status')
        out.append(status_text + b'\n')
        tree = gits(*more)[0][1] if more else tree
    else:
        done = gits(([b'rev-parse', b'-q', b'--verify', b'HEAD'],) + here,
                    ([b'symbolic-ref', b'-q', b'--short', b'HEAD'],) + here, *more)
        (_, head), (_, branch) = done[:2]
        tree = done[2][1] if more else tree
        m(b'head')
        out.append(head.kept())
        m(b'branch')
        out.append(branch.kept())

    m(b'ops')
    sandbox.acting_start()
    try:
        isfile, isdir = os.path.isfile, os.path.isdir
        if isfile(gd + b'/MERGE_HEAD'):
            out.append(b'merge\n')
        if isdir(gd + b'/rebase-merge'):
            out.append(b'rebase\n')
        if isdir(gd + b'/rebase-apply'):
            out.append(b'am\n' if isfile(gd + b'/rebase-apply/applying') else b'rebase\n')
        if isfile(gd + b'/CHERRY_PICK_HEAD'):
            out.append(b'cherry-pick\n')
        if isfile(gd + b'/REVERT_HEAD'):
            out.append(b'revert\n')
        if isfile(gd + b'/BISECT_LOG'):
            out.append(b'bisect\n')
    finally:
        sandbox.acting_end()

    m(b'refs')
    out.append(refs.kept())

    tree = _subst(tree)
    m(b'tree')
    out.append(tree + b'\n')
    m(b'diff')
    facts.update({'git_dir': gd, 'top': top, 'submodules': subs, 'state_dir': st, 'tree': tree, 'where': where,
                  'tree_env': tree_env})


def _diff(out, gits, prev, tree, where, tree_env, diff_bytes):
    if tree:
        if prev and prev != tree:
            # A moved submodule is shown as its two commits: diff.submodule=diff (the model's) would run a
            # git diff in the submodule, which reads the submodule's external diff driver and textconv.
            [(_, diff)] = gits(([b'diff', b'--no-color', b'--no-ext-diff', b'--no-textconv', b'--submodule=short', prev,
                                 tree], where, diff_bytes, tree_env))
            out.append(b'%d\n' % diff.total + diff.kept())
        else:
            out.append(b'0\n')


def _subst(sink):
    # What bash's $(...) keeps of a command's output: no NUL bytes, no trailing newlines.
    return sink.kept().replace(b'\0', b'').rstrip(b'\n')


# The configuration git reads here, besides the files below: none of the system's or the user's (the
# look-ups' environment), and the command line's, held in these variables.
_CONFIG_FROM_ENV = (b'GIT_CONFIG_KEY_', b'GIT_CONFIG_PARAMETERS')
# Variables that would make git read other files than the ones below, or read them elsewhere.
_CONFIG_ELSEWHERE = (b'GIT_CONFIG', b'GIT_CONFIG_SYSTEM', b'GIT_DIR', b'GIT_COMMON_DIR')


def _no_filter_keys(sandbox, gd, env):
    """Whether no configuration git reads in the repository at gd can hold a filter.* key.

    A section is named by its literal bytes (no escape, no continuation reaches a section's name), so a
    file without "filter" in any case holds no filter key, and one without "include" includes no other
    file. Anything less plain (another configuration file, a linked work tree's common directory, a file
    that cannot be read) answers no, and git itself is asked.
    """
    if (env.get(b'GIT_CONFIG_NOSYSTEM') or b'').lower() not in (b'1', b'true', b'yes', b'on'):
        return False
    if env.get(b'GIT_CONFIG_GLOBAL') != b'/dev/null':
        return False
    for name, value in env.items():
        if name in _CONFIG_ELSEWHERE:
            return False
        if name.startswith(_CONFIG_FROM_ENV) and _may_name_filters(value):
            return False
    sandbox.acting_start()
    try:
        if os.path.lexists(gd + b'/commondir'):
            return False
        for name in (b'/config', b'/config.worktree'):
            try:
                fd = os.open(gd + name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            except OSError:
                return False
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return False
                chunks = []
                while True:
                    data = os.read(fd, 1048576)
                    if not data:
                        break
                    chunks.append(data)
            except OSError:
                return False
            finally:
                os.close(fd)
            if _may_name_filters(b''.join(chunks)):
                return False
        return True
    finally:
        sandbox.acting_end()


def _may_name_filters(text):
    text = text.lower()
    return b'filter' in text or b'include' in text


def _enterable(sandbox, path):
    sandbox.acting_start()
    try:
        return os.path.isdir(path) and os.access(path, os.X_OK, effective_ids=True)
    finally:
        sandbox.acting_end()


# A gitlink's mode (0o160000) as an index entry holds it, and a split index's extension: an index
# without either names no submodule, and the read finds none without parsing it.
_GITLINK_MODE = b'\x00\x00\xe0\x00'
_SPLIT_INDEX = b'link'
# The scorer's guard as a module (lookup-config.py), loaded once when first needed.
_GUARD = []


def _copy_index(sandbox, index, copy):
    # if [ -f "$gd/index" ]; then cp --preserve=timestamps "$gd/index" "$st/index"; else rm -f "$st/index"; fi
    # as the sandbox's uid; the opens never wait (no FIFO holds the runner), and a failure is cp's or
    # rm's: said on stderr, which the read discards, and the add below then works from what is there.
    # Returns whether the index may name a submodule (from what was read of it, copied or not).
    sandbox.acting_start()
    try:
        if not os.path.isfile(index):
            try:
                os.unlink(copy)
            except OSError:
                pass
            return False
        try:
            src = os.open(index, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return False
        chunks = []
        try:
            st = os.fstat(src)
            if not stat.S_ISREG(st.st_mode):
                return False
            while True:
                data = os.read(src, 1048576)
                if not data:
                    break
                chunks.append(data)
            dst = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
            try:
                for data in chunks:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(dst, view):]
                os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))
            finally:
                os.close(dst)
        except OSError:
            pass
        finally:
            os.close(src)
        data = b''.join(chunks)
        return _GITLINK_MODE in data or _SPLIT_INDEX in data
    finally:
        sandbox.acting_end()


def _guard():
    # The scorer's guard (packages/core/src/scoring/lookup-config.py), loaded as a module, which defines
    # its functions and runs nothing: beside this file in the image (docker/build-sandbox-image.sh copies
    # it there), in the checkout on the host (the local driver).
    if not _GUARD:
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, 'lookup_config.py')
        if not os.path.exists(path):
            path = os.path.join(here, '..', '..', 'core', 'src', 'scoring', 'lookup-config.py')
        with open(path, encoding='utf-8') as f:
            scope = {'__name__': 'lookup_config'}
            exec(compile(f.read(), path, 'exec'), scope)
        _GUARD.append(scope)
    return _GUARD[0]


def _submodule_git_dirs(sandbox, top, gd):
    """The git directories of every submodule git looks into from the work tree at top (git directory gd).

    Found as the scorer's guard finds them (submodule_git_dirs: the gitlinks of every index, followed
    down, wherever a .git file points), as the sandbox's uid; None when an index cannot be read for
    them, which git cannot read either.
    """
    find = _guard()['submodule_git_dirs']
    sandbox.acting_start()
    try:
        return [os.fsencode(d) for d, _ in find(os.fsdecode(top), os.fsdecode(gd))]
    except (OSError, RuntimeError, ValueError):
        return None
    finally:
        sandbox.acting_end()
