import { SETUP_GIT_CONFIG } from '../fixtures/setup-script';

/**
 * How the scorer's look-ups (probes) see a repository the model has had in its hands: as it is, not
 * as the model's configuration presents it. Two parts, both run after every process of the model's
 * was killed (see the sandbox's runner):
 *
 * 1. lookupConfigPy rewrites the repository's configuration files keeping only a whitelist of keys
 *    (layout, remotes, branches, identity, submodules, and the keys the probes themselves read): no
 *    core.fsmonitor, filter, diff or merge drivers, textconv, hooksPath, pager, editor, alias,
 *    include, status, log, color or worktree setting the model wrote survives.
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
    GIT_GRAFT_FILE: '/dev/null',
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

/** Keys a look-up reads with `git config --get <key>`: kept, since the scorer asks for them. */
export function configKeysRead(commands: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const command of commands) {
    for (const m of command.matchAll(/git config (?:--get |--get-all )?'?([A-Za-z0-9][A-Za-z0-9.\-_/]*)'?/g)) keys.add(m[1]!.toLowerCase());
  }
  return [...keys].sort();
}

/**
 * Python (run in the repository's directory, as the sandbox's uid, after the model's processes are
 * gone) that rewrites each configuration file git would read for it, keeping whitelisted keys only.
 * A file it cannot parse becomes one git refuses, so nothing of it can take effect unread.
 */
export function lookupConfigPy(extraKeys: readonly string[] = []): string {
  return `EXTRA = ${JSON.stringify([...extraKeys].map((k) => k.toLowerCase()))}\n${LOOKUP_CONFIG_BODY}`;
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

for d in git_dirs():
    rewrite(os.path.join(d, 'config'))
    for root, subdirs, files in os.walk(os.path.join(d, 'modules')):
        if 'config' in files:
            rewrite(os.path.join(root, 'config'))
`;
