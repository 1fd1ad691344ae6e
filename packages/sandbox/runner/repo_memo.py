"""The session runner's answer to a read of a repository that has not changed since its last full read.

Most agent steps only read (git status, git log, cat, grep), and a full read (repo_state.py) starts
six to eight git processes. After a full read the runner keeps, in its own memory (out of the model's
reach), what the read printed up to its diff, and a fingerprint of everything that output depends on:
every entry under the work tree, the git directory inside it (objects, refs, index, configuration,
the files of an operation in progress), and the read's own state directory (the copy of the index and
the object store its tree is written into), each entry's lstat (type, mode, owner, size, inode, link
count, modification and change times; a directory's content is its entries), the directory the read
starts in, and the git program found on PATH. The next read takes the fingerprint again, in Python,
starting no process; if it is the same, the output is the one kept, and only the diff against the
previous tree is made as the full read makes it (none where that tree is the one kept). The read's
environment and directory are the memo's key: another one is read in full.

Timestamps come from a coarse clock (a tick of a few milliseconds, seconds on some file systems), so a
file can be written again with the same size and times: the change time, which no process of the
model's can set, then proves nothing for an entry changed less than RACY_NS before the fingerprint was
taken, and such an entry's content (a file's bytes, a symbolic link's target) is kept as a digest and
compared. The fingerprint opens no file that is not a regular one, follows no symbolic link and runs
nothing; whatever is unusual (a git directory that is not the work tree's .git, a submodule or another
repository inside, alternates, a symbolic link git would follow out of the fingerprint, a configuration
git reads from elsewhere, a tree of more than MAX_ENTRIES entries, an entry it cannot read) keeps the
full read. The observer beside a third-party agent (observe.py) is a new process per read and always
reads in full.
"""
import hashlib
import os
import stat
import struct
import time

from common import program_path

RACY_NS = 2 * 10 ** 9
MAX_ENTRIES = 10000
MAX_RACY_BYTES = 16 * 1024 * 1024

# Configuration that makes the read depend on a file outside the fingerprint (an included file, the
# diff's order file, an excludes or attributes file, a file system monitor's answers).
_OUTSIDE_KEYS = (b'include', b'orderfile', b'excludesfile', b'attributesfile', b'fsmonitor')
# What the command line must say of them, whatever a configuration file says (the look-ups' environment).
_COMMAND_LINE = {b'core.excludesfile': b'/dev/null', b'core.attributesfile': b'/dev/null', b'core.fsmonitor': b'false'}
# Variables that point git to files elsewhere or change where and how it finds the repository and what
# it trusts of the work tree (git(1), ENVIRONMENT VARIABLES): the shallow file, the replace refs, the
# attributes' tree, a namespace, the discovery's limits, the programs it runs, an untracked cache
# forced on, and git's test switches (an fsmonitor, a split index).
_ELSEWHERE = (b'GIT_DIR', b'GIT_WORK_TREE', b'GIT_COMMON_DIR', b'GIT_INDEX_FILE', b'GIT_OBJECT_DIRECTORY',
              b'GIT_ALTERNATE_OBJECT_DIRECTORIES', b'GIT_CONFIG', b'GIT_CONFIG_SYSTEM', b'GIT_CONFIG_PARAMETERS',
              b'GIT_SHALLOW_FILE', b'GIT_REPLACE_REF_BASE', b'GIT_ATTR_SOURCE', b'GIT_NAMESPACE',
              b'GIT_CEILING_DIRECTORIES', b'GIT_DISCOVERY_ACROSS_FILESYSTEM', b'GIT_EXEC_PATH',
              b'GIT_QUARANTINE_PATH', b'GIT_FORCE_UNTRACKED_CACHE')
_TRUE = (b'1', b'true', b'yes', b'on')


class Unusual(Exception):
    """The repository or the read is not one the fingerprint covers: the full read answers."""


class RepoStateMemo:
    """The last full read of a session and its fingerprint; nothing while there is none to trust."""

    def __init__(self):
        self.kept = None
        # After a miss: the git directory and the top of the work tree, where git would find them as the
        # kept read found them (what it looks at unchanged), else None.
        self.found = None

    def answer(self, sandbox, cwd, env):
        """The kept read (Kept) when the repository is as it was then, else None (and nothing is kept)."""
        kept, self.kept, self.found = self.kept, None, None
        if kept is None or kept.key != _key(cwd, env):
            return None
        sandbox.acting_start()
        try:
            taken = time.time_ns()
            if _where(cwd, env) != kept.where:
                return None
            entries = _walk(kept.roots)
            if entries != kept.entries:
                self.found = _found_again(kept, entries)
                return None
            for path, digest in kept.digests.items():
                if _content(path, kept.entries[path]) != digest:
                    return None
        except (OSError, Unusual):
            return None
        finally:
            sandbox.acting_end()
        # Proved unchanged now: what changed less than RACY_NS before now still needs its content, and
        # so does what git reads again whatever its times (a write through a shared mmap moves none).
        kept.digests = {p: d for p, d in kept.digests.items() if p in kept.reread or _racy(kept.entries[p], taken)}
        self.kept = kept
        return kept

    def before_read(self, env):
        """Called before a full read: when it starts (what changed after it is racy), or None."""
        self.kept = None
        return time.time_ns() if _env_is_plain(env) else None

    def after_read(self, sandbox, cwd, env, taken, facts, printed):
        """Keeps the full read's output when the fingerprint covers all it depends on.

        The fingerprint is taken after the read, which changed nothing it printed, but wrote the read's
        own directory and moved the times of the objects it found written already (git freshens them).
        """
        if taken is None or facts is None:
            return
        top, gd, state_dir = facts['top'], facts['git_dir'], facts['state_dir']
        if gd != top + b'/.git' or facts['submodules'] != [] or _inside(state_dir, top) or _inside(top, state_dir) \
                or not _config_is_plain(sandbox, gd):
            return
        sandbox.acting_start()
        try:
            for name in (b'/commondir', b'/objects/info/alternates'):
                if os.path.lexists(gd + name):
                    return
            where = _where(cwd, env)
            if not _inside(where[0], top) or _inside(where[0], gd):
                return
            entries = _walk([top, state_dir])
            if any(_followed(p, e, gd, state_dir) for p, e in entries.items()):
                return
            reread = _reread(entries, top, gd)
            racy = [p for p, e in entries.items() if p in reread or _racy(e, taken)]
            if sum(entries[p][7] for p in racy) > MAX_RACY_BYTES:
                return
            digests = {p: _content(p, entries[p]) for p in racy}
        except (OSError, Unusual):
            return
        finally:
            sandbox.acting_end()
        self.kept = Kept(_key(cwd, env), where, [top, state_dir], entries, digests, reread, printed, facts)


class Kept:
    def __init__(self, key, where, roots, entries, digests, reread, printed, facts):
        self.key, self.where, self.roots, self.entries, self.digests = key, where, roots, entries, digests
        self.reread = reread
        self.git_dir, self.top = facts['git_dir'], facts['top']
        self.printed, self.tree = printed, facts['tree']
        self.tree_dir, self.tree_env = facts['where'], facts['tree_env']


def _found_again(kept, entries):
    # git looks from the starting directory up for a .git, or a directory that is a repository itself
    # (HEAD, objects and refs), and takes the work tree's .git as a repository by its HEAD, objects,
    # refs and configuration (the format, core.bare, core.worktree; commondir for a linked work tree),
    # owned by whom they are (safe.directory). Where each of those is as the kept read found it (the
    # directory the read starts in too), git finds the same.
    gd, top = kept.git_dir, kept.top
    paths = [top, gd] + [gd + n for n in (b'/HEAD', b'/config', b'/config.worktree', b'/commondir', b'/objects',
                                          b'/refs')]
    d = kept.where[0]
    while d != top and _inside(d, top):
        paths += [d] + [d + n for n in (b'/.git', b'/HEAD', b'/objects', b'/refs')]
        d = os.path.dirname(d)
    try:
        for p in paths:
            if entries.get(p) != kept.entries.get(p):
                return None
            if p in kept.digests and _content(p, entries[p]) != kept.digests[p]:
                return None
    except (OSError, Unusual):
        return None
    return gd, top


def _reread(entries, top, gd):
    """The entries git reads in full at every read, whatever their times: their content is compared at
    every hit, as a write through a shared mmap (on tmpfs) moves neither time.

    Those are the files of the git directory it reads (not the objects, named by their content, nor the
    hooks and logs, which the read does not open), and in the work tree every file git hashes again:
    each one the index does not hold with the same lstat (type and executable bit, change and
    modification times, device, inode, owner, size) written before the second the index was (git's own
    racy check, by the nanosecond), so an untracked, ignored or modified one. Where the index cannot be
    read here (split or sparse, unknown), every file of the work tree is.
    """
    index = gd + b'/index'
    held = _index_entries(index, entries[index]) if index in entries else {}
    index_s = entries[index][8] // NS if index in entries else 0
    reread = set()
    work = top.rstrip(b'/') + b'/'
    for path, e in entries.items():
        if _inside(path, gd):
            if stat.S_ISREG(e[0]) and not any(_inside(path, gd + d) for d in (b'/objects', b'/hooks', b'/logs')):
                reread.add(path)
        elif path.startswith(work) and (stat.S_ISREG(e[0]) or stat.S_ISLNK(e[0])):
            f = held.get(path[len(work):])
            if f is None or f != _index_stat(e) or e[8] // NS >= index_s:
                reread.add(path)
    return reread


NS = 10 ** 9
_U32 = 0xffffffff


def _index_stat(e):
    # An entry's lstat as the index holds it (each number cut to 32 bits), with the mode git gives it.
    mode = 0o120000 if stat.S_ISLNK(e[0]) else 0o100755 if e[0] & 0o100 else 0o100644
    return (e[9] // NS & _U32, e[9] % NS, e[8] // NS & _U32, e[8] % NS, e[2] & _U32, e[1] & _U32, mode,
            e[4] & _U32, e[5] & _U32, e[6] & _U32)


def _index_entries(path, entry):
    # The index's entries at stage 0 that are not to be added (intent-to-add), by path: their lstat as
    # the index holds it; none where it is not an index of version 2 to 4 with SHA-1 names and all of
    # its entries (a split index's are in another file, a sparse one's directories stand for files).
    if not stat.S_ISREG(entry[0]):
        return {}
    data = _bytes(path, entry)
    held = {}
    try:
        if data[:4] != b'DIRC':
            return {}
        version, count = struct.unpack_from('>II', data, 4)
        if version not in (2, 3, 4):
            return {}
        at, name = 12, b''
        for _ in range(count):
            fields = struct.unpack_from('>10I', data, at)
            flags, = struct.unpack_from('>H', data, at + 60)
            extended = struct.unpack_from('>H', data, at + 62)[0] if version >= 3 and flags & 0x4000 else 0
            start = at + (64 if version >= 3 and flags & 0x4000 else 62)
            if version == 4:
                strip, start = _varint(data, start)
                end = data.index(b'\0', start)
                name = name[:len(name) - strip] + data[start:end]
                at = end + 1
            else:
                end = data.index(b'\0', start)
                name = data[start:end]
                at += (start - at + len(name) + 8) & ~7
            if not flags & 0x3000 and not extended & 0x2000:
                held[name] = fields
        while at + 8 <= len(data) - 20:
            signature, size = data[at:at + 4], struct.unpack_from('>I', data, at + 4)[0]
            if signature in (b'link', b'sdir'):
                return {}
            at += 8 + size
    except (struct.error, ValueError):
        return {}
    return held


def _varint(data, at):
    # git's offset varint (varint.c).
    c = data[at]
    at += 1
    value = c & 127
    while c & 128:
        c = data[at]
        at += 1
        value = ((value + 1) << 7) + (c & 127)
    return value, at


def _key(cwd, env):
    return cwd, tuple(sorted(env.items()))


def _followed(path, entry, gd, state_dir):
    # A symbolic link git would follow out of the fingerprint (any in the git directory or the read's
    # own, an in-tree .gitignore or .gitattributes for a git that still reads through them), or another
    # repository's .git, which add looks into for its HEAD.
    name = os.path.basename(path)
    if name == b'.git' and path != gd:
        return True
    if not stat.S_ISLNK(entry[0]):
        return False
    return name in (b'.gitignore', b'.gitattributes') or _inside(path, gd) or _inside(path, state_dir)


def _inside(path, root):
    return path == root or path.startswith(root.rstrip(b'/') + b'/')


def _where(cwd, env):
    # Where the read's git processes start (the directory, by its real path and its identity, as git's
    # getcwd() names it), and which git program they run.
    s = os.stat(cwd)
    git = program_path(b'git', env)
    g = os.stat(git) if git else None
    return (os.path.realpath(cwd), s.st_dev, s.st_ino, git, g and (g.st_dev, g.st_ino, g.st_mtime_ns, g.st_ctime_ns))


def _walk(roots):
    # Every entry under the roots and the roots themselves, by path: (mode, inode, device, links, uid,
    # gid, size, size, mtime, ctime) (_entry); the size is at index 7 for the racy count.
    entries = {}
    for root in roots:
        entries[root] = _entry(os.lstat(root))
        stack = [root] if stat.S_ISDIR(entries[root][0]) else []
        while stack:
            with os.scandir(stack.pop()) as listing:
                for e in listing:
                    # Counted as they come: one directory of a million entries is not listed first.
                    if len(entries) >= MAX_ENTRIES:
                        raise Unusual()
                    s = _entry(e.stat(follow_symlinks=False))
                    entries[e.path] = s
                    if stat.S_ISDIR(s[0]):
                        stack.append(e.path)
    return entries


def _entry(s):
    # A directory's content is its entries, each walked: its times are left out, as they move when a
    # file is made and removed again in it (git status makes and removes index.lock in the git
    # directory, which changes nothing the read prints).
    if stat.S_ISDIR(s.st_mode):
        return s.st_mode, s.st_ino, s.st_dev, s.st_nlink, s.st_uid, s.st_gid, 0, 0, 0, 0
    return (s.st_mode, s.st_ino, s.st_dev, s.st_nlink, s.st_uid, s.st_gid, s.st_size, s.st_size, s.st_mtime_ns,
            s.st_ctime_ns)


def _racy(entry, taken):
    return max(entry[8], entry[9]) >= taken - RACY_NS


def _content(path, entry):
    # A regular file's bytes, a symbolic link's target, as digests; a directory's content is its
    # entries, walked; other kinds hold nothing git reads.
    mode = entry[0]
    if stat.S_ISLNK(mode):
        return b'l' + os.readlink(path)
    if not stat.S_ISREG(mode):
        return b''
    digest = hashlib.sha256()
    _bytes(path, entry, digest.update)
    return b'f' + digest.digest()


def _bytes(path, entry, take=None):
    # The bytes of the regular file the entry is, each block given to take, else all returned.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    blocks = []
    try:
        s = os.fstat(fd)
        if not stat.S_ISREG(s.st_mode) or (s.st_ino, s.st_dev) != (entry[1], entry[2]):
            raise Unusual()
        while True:
            data = os.read(fd, 1048576)
            if not data:
                return b''.join(blocks)
            (take or blocks.append)(data)
    finally:
        os.close(fd)


def _env_is_plain(env):
    # No system or global configuration, no system attributes, nothing read from elsewhere, and the
    # command line's configuration naming no file outside the fingerprint.
    for name in (b'GIT_CONFIG_NOSYSTEM', b'GIT_ATTR_NOSYSTEM'):
        if (env.get(name) or b'').lower() not in _TRUE:
            return False
    if env.get(b'GIT_CONFIG_GLOBAL') != b'/dev/null':
        return False
    if any(name in env for name in _ELSEWHERE) or any(name.startswith(b'GIT_TEST_') for name in env):
        return False
    # A PATH entry that is not absolute would find git in the directory git runs in, not where the
    # fingerprint looks.
    if not all(d.startswith(b'/') for d in env.get(b'PATH', b'/usr/bin:/bin').split(b':')):
        return False
    graft = env.get(b'GIT_GRAFT_FILE')
    if graft is not None and os.path.lexists(graft):
        return False
    said = {}
    for i in range(int(env.get(b'GIT_CONFIG_COUNT') or b'0')):
        key = (env.get(b'GIT_CONFIG_KEY_%d' % i) or b'').lower()
        said[key] = env.get(b'GIT_CONFIG_VALUE_%d' % i)
    if any(said.get(key) != value for key, value in _COMMAND_LINE.items()):
        return False
    return not any(word in key and key not in _COMMAND_LINE for key in said for word in _OUTSIDE_KEYS)


def _config_is_plain(sandbox, gd):
    # The repository's configuration includes no other file and names no diff order file (what the
    # command line sets for the other outside keys wins over it).
    sandbox.acting_start()
    try:
        for name in (b'/config', b'/config.worktree'):
            try:
                fd = os.open(gd + name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            with open(fd, 'rb') as f:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return False
                text = f.read(4 * 1024 * 1024 + 1).lower()
            # (and names its objects by SHA-1, as the index's reading above expects)
            if len(text) > 4 * 1024 * 1024 or b'include' in text or b'orderfile' in text or b'objectformat' in text:
                return False
        return True
    except OSError:
        return False
    finally:
        sandbox.acting_end()
