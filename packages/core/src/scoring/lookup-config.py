# The look-ups' configuration guard: run in the repository's directory, as the sandbox's uid, after the
# model's processes are gone, it rewrites each configuration file git would read for the repository
# (its git directory, the common one of a worktree, every submodule's), keeping whitelisted keys only;
# and, given what the build left (BUILT), restores LOOKUP_RESTORED_FILES in every git directory the build
# made or the repository names. A file it cannot parse becomes one git refuses, so nothing of it can take
# effect unread. Standard library only.
#
# lookupConfigPy (lookup-environment.ts) sends the text below the marker after two lines of its own:
# EXTRA, the keys a probe reads that are kept besides KEEP (lower case, section.subsection.key), and
# BUILT, what the build left ({repo, dirs, files, names}) or None. The values here let the file be linted
# and run on its own: it then rewrites the configuration of the repository it runs in.
EXTRA = []
BUILT = None
#
# Only what follows the line below is sent (scripts/lib/python-modules.ts); after editing, run
# `npm run python:generate`.
# ---- sent from the next line on ----

import os
KEEP = {
    'core': {'repositoryformatversion', 'filemode', 'bare', 'logallrefupdates', 'ignorecase', 'precomposeunicode', 'symlinks'},
    'extensions': {'objectformat'},
    'remote*': {'url', 'fetch', 'pushurl', 'push', 'mirror', 'tagopt'},
    'branch*': {'remote', 'merge', 'rebase', 'pushremote', 'description'},
    'user': {'name', 'email'},
    'submodule*': {'url', 'active', 'branch', 'path'},
}

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
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t').replace('\b', '\\b') + '"'

def rewrite(path):
    try:
        with open(path, 'rb') as f:
            raw = f.read()
    except OSError:
        return
    try:
        entries = parse(raw.decode('utf-8'))
    except UnicodeDecodeError:
        entries = None
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

def git_dirs():
    dot = '.git'
    if os.path.isfile(dot) and not os.path.islink(dot):
        with open(dot, 'rb') as f:
            line = f.read(4096).decode('utf-8', 'replace').strip()
        if not line.startswith('gitdir:'):
            return []
        dot = line[7:].strip()
    elif not os.path.isdir(dot):
        return []
    dirs = [dot]
    try:
        with open(os.path.join(dot, 'commondir'), 'rb') as f:
            dirs.append(os.path.join(dot, f.read(4096).decode('utf-8', 'replace').strip()))
    except OSError:
        pass
    return dirs

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

root = os.getcwd()
if BUILT:
    import binascii
    for _ in BUILT['repo'].split('/'):
        root = os.path.dirname(root)
seen = set()
for d in git_dirs():
    real = os.path.realpath(d)
    if real in seen or not os.path.isdir(d):
        continue
    seen.add(real)
    rewrite(os.path.join(d, 'config'))
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
