import { SETUP_GIT_CONFIG } from '../fixtures/setup-script';

/**
 * How the scorer's look-ups (probes) see a repository the model has had in its hands: as it is, not
 * as the model's configuration presents it. Two parts, both run after every process of the model's
 * was killed (see the sandbox's runner):
 *
 * 1. lookupConfigPy rewrites the repository's configuration files keeping only a whitelist of keys
 *    (layout, remotes, branches, identity, submodules, and the keys the probes themselves read): no
 *    core.fsmonitor, filter, diff or merge drivers, textconv, hooksPath, pager, editor, alias,
 *    include, status, log, color or worktree setting the model wrote survives. Given what the build
 *    left (BuiltGitFiles), it also puts back the git directory's files that change what git prints
 *    without being configuration (LOOKUP_RESTORED_FILES: local excludes and attributes, grafts, the
 *    shallow list, alternates) as the build left them, and does both for every git directory the
 *    build made (a bare remote beside the repository too, whose configuration an `ls-remote` reads).
 * 2. lookupEnvironment is the environment every look-up runs with: no system or global
 *    configuration (GIT_CONFIG_GLOBAL=/dev/null, a HOME and XDG_CONFIG_HOME that do not exist, so no
 *    excludes or attributes file of the model's either), no replace objects, no grafts, a fixed
 *    PATH, and command-line configuration that turns hooks, fsmonitor, pagers and colour off
 *    whatever a file says.
 */

/** A directory that does not exist and that the sandbox cannot create (its root file system is read-only). */
export const LOOKUP_HOME = '/nonexistent/gitbench-lookup';

/** Set last, over the pinned set-up configuration: the highest precedence git has. */
const LOOKUP_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ...SETUP_GIT_CONFIG,
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.attributesFile', '/dev/null'],
  ['core.excludesFile', '/dev/null'],
  ['color.ui', 'false'],
  ['log.showSignature', 'false'],
  // A commit-graph file answers for commits' parents without reading them: one the model wrote can
  // rewire history. The untracked cache answers for directories without listing them.
  ['core.commitGraph', 'false'],
  ['core.untrackedCache', 'false'],
];

/** The fixed environment of every scorer look-up, added over the batch's pinned environment. */
export function lookupEnvironment(): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    HOME: LOOKUP_HOME,
    XDG_CONFIG_HOME: LOOKUP_HOME,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    // A path that cannot exist: git reads no grafts from it, and says nothing. A graft file it can
    // open (/dev/null) makes it print a deprecation hint into every look-up's output, and a check
    // such as "the last commit has one parent" (%P has no space) then fails on the hint.
    GIT_GRAFT_FILE: `${LOOKUP_HOME}/grafts`,
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    EDITOR: 'true',
    VISUAL: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_COUNT: String(LOOKUP_GIT_CONFIG.length),
    ...Object.fromEntries(LOOKUP_GIT_CONFIG.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${i}`, key], [`GIT_CONFIG_VALUE_${i}`, value]])),
  };
}

/**
 * Every object checked against its name before the look-ups (run with lookupEnvironment, after the
 * configuration is rewritten): git trusts a loose or packed object's bytes without hashing them, so a
 * commit object rewritten in place (another parent, another message) changes what `git log` prints.
 */
export const LOOKUP_OBJECTS_CHECK = 'git fsck --no-dangling --no-progress';

/**
 * The lines of LOOKUP_OBJECTS_CHECK's report that name an object whose content is not what its name
 * says. Other complaints (a missing object, a broken ref) describe a repository the look-ups see as
 * broken, as it is; only forged content can make them see something else.
 */
export function forgedObjects(report: string): string[] {
  return report.split('\n').filter((line) => /\b(?:hash|hash-path|sha1) mismatch\b|is corrupt$/.test(line));
}

/** Keys a look-up reads with `git config --get <key>`: kept, since the scorer asks for them. */
export function configKeysRead(commands: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const command of commands) {
    for (const m of command.matchAll(/git config (?:--get |--get-all )?'?([A-Za-z0-9][A-Za-z0-9.\-_/]*)'?/g)) keys.add(m[1]!.toLowerCase());
  }
  return [...keys].sort();
}

/**
 * Files of a git directory, besides its configuration, that change what git prints: local ignore
 * rules (a file hidden from `git status`), local attributes (`-diff` hides a change from `git show`),
 * grafts and the shallow list (history cut or rewired), alternates (objects from elsewhere). Before
 * the look-ups each is put back as the build left it, or removed where the build had none.
 */
export const LOOKUP_RESTORED_FILES = ['info/exclude', 'info/attributes', 'info/grafts', 'shallow', 'objects/info/alternates'] as const;

/**
 * What the build left in the workspace that the look-ups' preparation puts back (paths relative to
 * the workspace, as in the build's archive): every git directory, and the content (base64) of each of
 * their LOOKUP_RESTORED_FILES and, for the git directories that are not the repository's own, of
 * their configuration.
 */
export interface BuiltGitFiles {
  /** The repository's directory in the workspace (the look-ups' current directory). */
  repoDir: string;
  gitDirs: string[];
  files: Record<string, string>;
}

/**
 * Python (run in the repository's directory, as the sandbox's uid, after the model's processes are
 * gone) that rewrites each configuration file git would read for it, keeping whitelisted keys only,
 * and, given what the build left, restores LOOKUP_RESTORED_FILES in every git directory the build
 * made or the repository names. A file it cannot parse becomes one git refuses, so nothing of it can
 * take effect unread.
 */
export function lookupConfigPy(extraKeys: readonly string[] = [], built?: BuiltGitFiles): string {
  const restore = built ? { repo: built.repoDir, dirs: built.gitDirs, files: built.files, names: LOOKUP_RESTORED_FILES } : null;
  return `EXTRA = ${JSON.stringify([...extraKeys].map((k) => k.toLowerCase()))}\nBUILT = ${restore ? JSON.stringify(restore) : 'None'}\n${LOOKUP_CONFIG_BODY}`;
}

const LOOKUP_CONFIG_BODY = String.raw`
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
    if os.path.isdir(p) and not os.path.islink(p):
        shutil.rmtree(p)
    elif os.path.lexists(p):
        os.unlink(p)

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
            f.write(base64.b64decode(data))

root = os.getcwd()
if BUILT:
    import base64, shutil
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
`;
