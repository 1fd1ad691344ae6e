# The look-ups' configuration guard: run in the repository's directory, as the sandbox's uid, after the
# model's processes are gone, it rewrites each configuration file git would read for the repository
# (its git directory, the common one of a worktree, every submodule's), keeping whitelisted keys only;
# and, given what the build left (BUILT), restores LOOKUP_RESTORED_FILES in every git directory the build
# made or the repository names. A file it cannot parse becomes one git refuses, so nothing of it can take
# effect unread. Given BUILT, it also takes the working tree's layout settings (core.fileMode and the like)
# from the build's configuration, clears the index's bits that make git skip comparing a file with the
# working tree (assume-unchanged, skip-worktree), and checks every object against its name (index_bits,
# forged_objects below). Standard library only, and only modules that cost nothing to load: the runner
# is a fresh python3 per attempt, where base64, shutil or hashlib cost 5 to 28 ms of CPU each.
#
# lookupConfigPy (lookup-environment.ts) sends the text below the marker after two lines of its own:
# EXTRA, the keys a probe reads that are kept besides KEEP (lower case, section.subsection.key), and
# BUILT, what the build left ({repo, dirs, files, names, own, packs}) or None, and ENV, the environment
# the git commands started here run with (the look-ups'). The values here let the file be linted and
# run on its own: it then rewrites the configuration of the repository it runs in.
EXTRA = []
BUILT = None
ENV = {'PATH': '/usr/bin:/bin', 'GIT_CONFIG_NOSYSTEM': '1', 'GIT_CONFIG_GLOBAL': '/dev/null'}
#
# Only what follows the line below is sent (scripts/lib/python-modules.ts); after editing, run
# `npm run python:generate`.
# ---- sent from the next line on ----

import os
import sys
KEEP = {
    'core': {'repositoryformatversion', 'filemode', 'bare', 'logallrefupdates', 'ignorecase', 'precomposeunicode',
             'symlinks'},
    'extensions': {'objectformat'},
    'remote*': {'url', 'fetch', 'pushurl', 'push', 'mirror', 'tagopt'},
    'branch*': {'remote', 'merge', 'rebase', 'pushremote', 'description'},
    'user': {'name', 'email'},
    'submodule*': {'url', 'active', 'branch', 'path'},
}

# How git lays out the working tree, which the build chose for its file system: the model's value of
# one could hide a change from the look-ups (core.fileMode false: a file made executable is unchanged
# to git status). Each is taken from the build's configuration, unless a look-up reads it.
LAYOUT = {'filemode', 'symlinks', 'ignorecase', 'precomposeunicode'}

def kept(sec, sub, key):
    full = sec + '.' + (sub + '.' if sub is not None else '') + key
    if full in EXTRA:
        return True
    return key in KEEP.get(sec + ('*' if sub is not None else ''), ())

def parse(t):
    i, n, sec, sub, out = 0, len(t), None, None, []
    while i < n:
        c = t[i]
        if c in ' \t\r\n':
            i += 1
        elif c in '#;':
            while i < n and t[i] != '\n':
                i += 1
        elif c == '[':
            j = i + 1
            while j < n and (t[j].isalnum() or t[j] in '-.'):
                j += 1
            name, sub = t[i + 1:j], None
            while j < n and t[j] in ' \t':
                j += 1
            if j < n and t[j] == '"':
                j, s = j + 1, []
                while j < n and t[j] != '"':
                    if t[j] == '\n':
                        return None
                    if t[j] == '\\' and j + 1 < n:
                        j += 1
                    s.append(t[j])
                    j += 1
                j, sub = j + 1, ''.join(s)
            if j >= n or t[j] != ']' or not name:
                return None
            if sub is None and '.' in name:
                name, _, sub = name.partition('.')
                sub = sub.lower()
            sec, i = name.lower(), j + 1
        else:
            j = i
            while j < n and (t[j].isalnum() or t[j] == '-'):
                j += 1
            key = t[i:j].lower()
            if not key or sec is None or not key[0].isalpha():
                return None
            while j < n and t[j] in ' \t':
                j += 1
            if j >= n or t[j] in '\r\n#;':
                out.append((sec, sub, key, None))
                i = j
                continue
            if t[j] != '=':
                return None
            j, v, quoted, pending, started = j + 1, [], False, '', False
            while j < n:
                c = t[j]
                if c == '\n' and not quoted:
                    break
                if c == '\n':
                    return None
                if c in '#;' and not quoted:
                    while j < n and t[j] != '\n':
                        j += 1
                    break
                if c == '"':
                    v.append(pending)
                    pending, quoted, started = '', not quoted, True
                elif c == '\\':
                    j += 1
                    if j >= n:
                        return None
                    e = t[j]
                    if e in 'ntb\\"':
                        v.append(pending + {'n': '\n', 't': '\t', 'b': '\b', '\\': '\\', '"': '"'}[e])
                        pending, started = '', True
                    elif e != '\n':
                        return None
                elif c in ' \t\r' and not quoted:
                    if started:
                        pending += c
                else:
                    v.append(pending + c)
                    pending, started = '', True
                j += 1
            if quoted:
                return None
            out.append((sec, sub, key, ''.join(v)))
            i = j
    return out

def quote(s):
    return '"' + (s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t')
                  .replace('\b', '\\b')) + '"'

def rewrite(path, layout=None):
    # layout: the build's entries of LAYOUT, which replace the model's (None: the model's are kept).
    try:
        with open(path, 'rb') as f:
            raw = f.read()
    except OSError:
        return
    try:
        entries = parse(raw.decode('utf-8'))
    except UnicodeDecodeError:
        entries = None
    if entries is not None and layout is not None:
        entries = [e for e in entries if not is_layout(*e[:3]) or ('core.' + e[2]) in EXTRA] + layout
    lines, last = [], None
    for sec, sub, key, value in entries or []:
        if not kept(sec, sub, key):
            continue
        if (sec, sub) != last:
            lines.append('[' + sec + (' ' + quote(sub) if sub is not None else '') + ']')
            last = (sec, sub)
        lines.append('\t' + key + ('' if value is None else ' = ' + quote(value)))
    text = '\n'.join(lines) + '\n' if entries is not None else '[ unreadable configuration\n'
    if os.path.islink(path):
        os.unlink(path)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)

def is_layout(sec, sub, key):
    return sec == 'core' and sub is None and key in LAYOUT

def built_layout():
    # The build's LAYOUT entries (a configuration git wrote, so it parses), and whether it checked out
    # sparsely (then a skip-worktree bit on a file absent from the working tree is the build's own).
    try:
        entries = parse(binascii.a2b_base64(BUILT['own']).decode('utf-8')) or []
    except (KeyError, TypeError, ValueError):
        return None, False
    sparse = any(e[:3] == ('core', None, 'sparsecheckout') and (e[3] or 'true').lower() in ('true', 'yes', 'on', '1')
                 for e in entries)
    return [e for e in entries if is_layout(*e[:3])], sparse

def git(args, git_dir=None, work_tree=None):
    # Runs git with ENV as the sandbox's uid (the runner acts as it: real uid root, effective the
    # sandbox's), as the runner starts a command; returns (exit code, output). Nothing of the model's
    # is alive (its processes were killed before this step), and the runner kills whatever this leaves.
    env = dict(ENV)
    if git_dir is not None:
        env['GIT_DIR'] = git_dir
    if work_tree is not None:
        env['GIT_WORK_TREE'] = work_tree
    program = next((p for p in ('/usr/bin/git', '/bin/git', '/usr/local/bin/git') if os.path.exists(p)),
                   '/usr/bin/git')
    r, w = os.pipe()
    try:
        pid = spawn(program, ['git'] + args, env, w)
    finally:
        os.close(w)
    chunks = []
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), b''.join(chunks)

def spawn(program, argv, env, out):
    # Starts git in a session of its own, stdin /dev/null, stdout and stderr 'out'. In the sandbox's
    # runner, which runs this acting as the sandbox's uid, by the runner's spawn_as: its child alone
    # takes the uid before its exec, and the runner's real uid stays root's. Taking the uid as the
    # runner for posix_spawn's child to inherit would let that uid signal the runner until it took its
    # own back (runner/common.py says how). On its own, or in a runner with no uid to act as, this
    # process's user runs git.
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        uid = os.geteuid()
        if uid == os.getuid():
            return os.posix_spawn(program, argv, env, setsid=True, file_actions=[
                (os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2)])
        from common import spawn_as
        # The child's /proc files are root's (the runner is not dumpable): spawn_as starts it as root.
        os.seteuid(0)
        try:
            return spawn_as(uid, program, argv, env, devnull, out, out)
        finally:
            os.seteuid(uid)
    finally:
        os.close(devnull)

def index_bits(path):
    # The names of an index file's entries with the assume-unchanged or skip-worktree bit (versions 2
    # to 4), whether it is split (its other half, a sharedindex file, may hold more), and the names of
    # its gitlinks (submodules); None when it is not an index this reads, which git then reads for it.
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] != b'DIRC':
        return None
    version, count = int.from_bytes(data[4:8], 'big'), int.from_bytes(data[8:12], 'big')
    if version not in (2, 3, 4):
        return None
    pos, name, found, links = 12, b'', [], []
    try:
        for _ in range(count):
            gitlink = int.from_bytes(data[pos + 24:pos + 28], 'big') & 0o170000 == 0o160000
            flags = int.from_bytes(data[pos + 60:pos + 62], 'big')
            at = pos + 62
            extended = 0
            if flags & 0x4000:
                extended = int.from_bytes(data[at:at + 2], 'big')
                at += 2
            if version == 4:
                # The name is the previous one less a number of bytes (git's offset varint), plus a suffix.
                c = data[at]
                at += 1
                strip = c & 127
                while c & 128:
                    c = data[at]
                    at += 1
                    strip = ((strip + 1) << 7) | (c & 127)
                end = data.index(b'\0', at)
                name = name[:len(name) - strip] + data[at:end]
                pos = end + 1
            else:
                end = data.index(b'\0', at)
                name = data[at:end]
                pos += (at - pos + len(name) + 8) & ~7
            if flags & 0x8000 or extended & 0x4000:
                found.append(name)
            if gitlink:
                links.append(name)
        split = False
        while pos + 8 <= len(data) - 20:
            split = split or data[pos:pos + 4] == b'link'
            pos += 8 + int.from_bytes(data[pos + 4:pos + 8], 'big')
    except (IndexError, ValueError):
        return None
    return found, split, links

def clear_index_bits(d, sparse, work=None):
    # A bit that tells git a file is unchanged without looking (assume-unchanged), or that it is not in
    # the working tree (skip-worktree), hides a change from git status. Both are cleared, through git,
    # whenever an index of the repository has one; a skip-worktree bit stays only on a file absent from
    # a working tree the build checked out sparsely. Reading the index costs no process; git runs only
    # when there is something to clear. work: a submodule's work tree, whose git directory is d (None:
    # the repository's own, here).
    at = {} if work is None else {'git_dir': os.path.abspath(d), 'work_tree': os.path.abspath(work)}
    read = index_bits(os.path.join(d, 'index'))
    shared = [os.path.join(d, n) for n in os.listdir(d) if n.startswith('sharedindex.')]
    if (read is not None and not read[0] and not read[1]
            and all((index_bits(p) or ([], False))[0] == [] for p in shared)):
        return
    if read is None and not os.path.lexists(os.path.join(d, 'index')):
        return
    if read is None or read[1]:
        git(['update-index', '--no-split-index'], **at)
    code, listing = git(['ls-files', '-v', '-z'], **at)
    if code != 0:
        raise RuntimeError('git ls-files -v failed (exit %d): %s' % (code, listing[-300:].decode('utf-8', 'replace')))
    # A lower-case tag is an assume-unchanged entry, S (or s) a skip-worktree one. git update-index
    # applies only the first of --no-assume-unchanged and --no-skip-worktree to a path: one call each.
    assumed, skipped, kept_absent = [], [], []
    for entry in listing.split(b'\0'):
        tag, path = entry[:1], entry[2:]
        if not path:
            continue
        if tag.islower():
            assumed.append(path)
        if tag in (b'S', b's'):
            (kept_absent if sparse and not os.path.lexists(path) else skipped).append(path)
    for flag, paths in (('--no-assume-unchanged', assumed), ('--no-skip-worktree', skipped)):
        for i in range(0, len(paths), 1000):
            code, said = git(['update-index', flag, '--'] + paths[i:i + 1000], **at)
            if code != 0:
                raise RuntimeError('git update-index %s failed (exit %d): %s'
                                   % (flag, code, said[-300:].decode('utf-8', 'replace')))
    left = index_bits(os.path.join(d, 'index'))
    if left is None or left[1] or set(left[0]) - set(kept_absent):
        raise RuntimeError('the index still has assume-unchanged or skip-worktree bits after clearing them')

HEX = frozenset('0123456789abcdef')

def object_dirs(git_dirs_seen):
    # Every object directory git may read for these git directories: their own, and their alternates'
    # (as restored), followed as git follows them.
    found, todo = [], [(os.path.join(d, 'objects'), d) for d in git_dirs_seen]
    while todo:
        o, owner = todo.pop()
        real = os.path.realpath(o)
        if any(real == f[1] for f in found) or not os.path.isdir(o):
            continue
        found.append((o, real, owner))
        try:
            with open(os.path.join(o, 'info', 'alternates'), 'rb') as f:
                lines = f.read().decode('utf-8', 'replace').splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.strip()
            if line and not line.startswith('#'):
                todo.append((os.path.join(o, line), owner))
    return found

def forged_loose(o):
    # A loose object's name is the hash of its inflated bytes; git reads them without hashing. One whose
    # bytes do not inflate whole, or hash to another name, was written by hand.
    import zlib
    from _sha1 import sha1
    forged = []
    try:
        subs = os.listdir(o)
    except OSError:
        return forged  # unreadable to git too: objects missing, not forged
    for sub in subs:
        if len(sub) != 2 or not HEX.issuperset(sub):
            continue
        try:
            names = os.listdir(os.path.join(o, sub))
        except OSError:
            continue
        for name in names:
            if len(name) not in (38, 62) or not HEX.issuperset(name):
                continue
            path = os.path.join(o, sub, name)
            try:
                with open(path, 'rb') as f:
                    data = f.read()
            except OSError:
                continue  # unreadable to git too: a missing object, not a forged one
            inflate = zlib.decompressobj()
            try:
                body = inflate.decompress(data)
            except zlib.error:
                body = None
            if len(name) == 62:
                try:
                    from _sha256 import sha256 as digest
                except ImportError:
                    from _sha2 import sha256 as digest
            else:
                digest = sha1
            if body is None or not inflate.eof or inflate.unused_data or digest(body).hexdigest() != sub + name:
                forged.append('error: hash mismatch ' + path)
    return forged

def packs_as_built(o, root):
    # Whether every file of the directory's packs (packs, their indexes, a multi-pack index) is one
    # the build left, byte for byte: those objects are the build's. A pack the model wrote, or changed,
    # is checked by git fsck.
    pack = os.path.join(o, 'pack')
    try:
        names = os.listdir(pack)
    except OSError:
        return True
    if names:
        from _sha1 import sha1
    for name in names:
        path = os.path.join(pack, name)
        want = BUILT['packs'].get(os.path.relpath(os.path.abspath(path), root))
        if want is None or os.path.islink(path) or not os.path.isfile(path):
            return False
        h = sha1()
        with open(path, 'rb') as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                h.update(chunk)
        if h.hexdigest() != want:
            return False
    return True

def forged_objects(git_dirs_seen, repo_git_dir, root):
    # The lines that name a forged object, as git fsck prints them (core's forgedObjects reads them).
    # Loose objects are hashed here; packs the build left unchanged are the build's; anything else in
    # a pack directory has git fsck check the git directory it belongs to (the repository's for an
    # alternate of its own).
    forged, fsck = [], []
    for o, real, owner in object_dirs(git_dirs_seen):
        forged += forged_loose(o)
        if not packs_as_built(o, root) and owner not in fsck:
            fsck.append(owner)
    for d in fsck:
        code, report = git(['fsck', '--no-dangling', '--no-progress'],
                           git_dir=None if d == repo_git_dir else os.path.abspath(d))
        forged += report.decode('utf-8', 'replace').splitlines()
    return forged

def git_dirs(work=''):
    # The git directory of the work tree (as .git, a directory or a file naming one), and its common
    # directory if it has one: where git reads the configuration for it.
    dot = os.path.join(work, '.git')
    if os.path.isfile(dot) and not os.path.islink(dot):
        with open(dot, 'rb') as f:
            line = f.read(4096).decode('utf-8', 'replace').strip()
        if not line.startswith('gitdir:'):
            return []
        dot = os.path.join(work, line[7:].strip())
    elif not os.path.isdir(dot):
        return []
    dirs = [dot]
    try:
        with open(os.path.join(dot, 'commondir'), 'rb') as f:
            dirs.append(os.path.join(dot, f.read(4096).decode('utf-8', 'replace').strip()))
    except OSError:
        pass
    return dirs

def submodule_git_dirs(work, d):
    # git status and diff look into every gitlink of an index whose path holds a repository, with a git
    # of the submodule's own that reads the submodule's configuration (and the submodule's gitlinks in
    # turn): a repository the model embedded in the work tree, or one its .git file names anywhere, is
    # read as a submodule as much as one under .git/modules. Their git directories (the repository's
    # own, d, not among them), found as git finds them. A split index's gitlinks may be in its shared
    # half: every sharedindex file is read too. An index this cannot read fails the preparation.
    found, todo = [(d, os.path.realpath(d), work)], [(work, d)]
    while todo:
        work, d = todo.pop()
        indexes = [os.path.join(d, n) for n in os.listdir(d) if n == 'index' or n.startswith('sharedindex.')]
        links = set()
        for p in indexes:
            read = index_bits(p)
            if read is None:
                raise RuntimeError('the index %s cannot be read for its submodules' % p)
            links.update(read[2])
        for name in sorted(links):
            sub = os.path.join(work, os.fsdecode(name))
            dirs = [g for g in git_dirs(sub) if os.path.isdir(g)]
            if not dirs or any(os.path.realpath(g) in (f[1] for f in found) for g in dirs):
                continue
            found += [(g, os.path.realpath(g), sub if i == 0 else None) for i, g in enumerate(dirs)]
            todo.append((sub, dirs[0]))
    return [(g, w) for g, _, w in found[1:]]

def remove(p):
    # Not shutil.rmtree, nor base64 below: importing them (bz2, lzma, re) costs about 10 ms of CPU
    # per attempt, more than the rest of this file. A directory the model made unremovable (no
    # search permission) fails here as it failed rmtree: the look-ups cannot be prepared.
    if os.path.isdir(p) and not os.path.islink(p):
        for top, subdirs, files in os.walk(p, topdown=False, onerror=fail):
            for name in files + [d for d in subdirs if os.path.islink(os.path.join(top, d))]:
                os.unlink(os.path.join(top, name))
            for name in subdirs:
                if not os.path.islink(os.path.join(top, name)):
                    os.rmdir(os.path.join(top, name))
        os.rmdir(p)
    elif os.path.lexists(p):
        os.unlink(p)

def fail(error):
    raise error

def restore(d, root, names):
    for name in names:
        p = os.path.join(d, name)
        data = BUILT['files'].get(os.path.relpath(os.path.abspath(p), root))
        remove(p)
        if data is None:
            continue
        parent = os.path.dirname(p)
        if os.path.lexists(parent) and not os.path.isdir(parent):
            os.unlink(parent)
        os.makedirs(parent, exist_ok=True)
        with open(p, 'wb') as f:
            f.write(binascii.a2b_base64(data))

def prepare():
    # The guard itself, run where lookupConfigPy's text is run (the batch runner's thenPython). Loaded
    # as a module (lookup_config, by the session runner's read of an agent's repository: repo_state.py)
    # it only defines the functions above, whose finding of git directories that read reuses.
    global binascii
    root = os.getcwd()
    layout, sparse = None, False
    if BUILT:
        import binascii
        for _ in BUILT['repo'].split('/'):
            root = os.path.dirname(root)
        layout, sparse = built_layout()
    seen = set()
    own = git_dirs()
    for d in own:
        real = os.path.realpath(d)
        if real in seen or not os.path.isdir(d):
            continue
        seen.add(real)
        rewrite(os.path.join(d, 'config'), layout)
        if BUILT:
            restore(d, root, BUILT['names'])
        for sub, subdirs, files in os.walk(os.path.join(d, 'modules')):
            if 'config' in files:
                seen.add(os.path.realpath(sub))
                rewrite(os.path.join(sub, 'config'))
                if BUILT:
                    restore(sub, root, BUILT['names'])
    # The build's other git directories (a bare remote beside or inside the repository): no reason for
    # the model to configure them, so their configuration is put back whole, as built, with the rest.
    for g in BUILT['dirs'] if BUILT else []:
        d = os.path.join(root, g)
        if os.path.realpath(d) not in seen and os.path.isdir(d):
            seen.add(os.path.realpath(d))
            restore(d, root, BUILT['names'] + ['config'])
    # The submodules git may look into, wherever their git directories are; any the build made was put back
    # above. Each one's configuration is whitelisted too, and its excludes, attributes and the like removed.
    submodules = submodule_git_dirs('', own[0]) if own and os.path.isdir(own[0]) else []
    for d, _ in submodules:
        if os.path.realpath(d) not in seen:
            seen.add(os.path.realpath(d))
            rewrite(os.path.join(d, 'config'))
            if BUILT:
                restore(d, root, BUILT['names'])
    if BUILT and own and os.path.isdir(own[0]):
        clear_index_bits(own[0], sparse)
        # A submodule's bits hide its changed files from a status run in it, and from the repository's,
        # which shows a submodule with changed content.
        for d, work in submodules:
            if work is not None:
                clear_index_bits(d, False, work)
    if BUILT:
        # What fsck would call a hash mismatch, on stderr for the host (the step still succeeds: the
        # repository is ready, and the host decides what a forged object means).
        report = forged_objects(sorted(seen), os.path.realpath(own[0]) if own else None, root)
        if report:
            print('\n'.join(report)[:64 * 1024], file=sys.stderr)

if __name__ != 'lookup_config':
    prepare()
