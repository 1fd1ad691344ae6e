import { SETUP_GIT_CONFIG } from '../fixtures/setup-script';
import { LOOKUP_CONFIG_BODY } from './lookup-config-py.generated';

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
    ...Object.fromEntries(
      LOOKUP_GIT_CONFIG.flatMap(([key, value], i) => [
        [`GIT_CONFIG_KEY_${i}`, key],
        [`GIT_CONFIG_VALUE_${i}`, value],
      ]),
    ),
  };
}

/**
 * Every object checked against its name before the look-ups (run with lookupEnvironment, after the
 * configuration is rewritten): git trusts a loose or packed object's bytes without hashing them, so a
 * commit object rewritten in place (another parent, another message) changes what `git log` prints.
 * lookupConfigPy does it given what the build left: it hashes every loose object, trusts a pack only
 * where it is the build's byte for byte (BuiltGitFiles.packs), and runs this on a git directory with
 * any other pack file, where git must read every object to check it.
 */
export const LOOKUP_OBJECTS_CHECK = 'git fsck --no-dangling --no-progress';

/**
 * The lines of LOOKUP_OBJECTS_CHECK's report (or lookupConfigPy's, which prints its findings the same
 * way) that name an object whose content is not what its name says. Other complaints (a missing
 * object, a broken ref) describe a repository the look-ups see as broken, as it is; only forged
 * content can make them see something else.
 */
export function forgedObjects(report: string): string[] {
  return report.split('\n').filter((line) => /\b(?:hash|hash-path|sha1) mismatch\b|is corrupt$/.test(line));
}

/** Keys a look-up reads with `git config --get <key>`: kept, since the scorer asks for them. */
export function configKeysRead(commands: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const command of commands) {
    for (const m of command.matchAll(/git config (?:--get |--get-all )?'?([A-Za-z0-9][A-Za-z0-9.\-_/]*)'?/g))
      keys.add(m[1]!.toLowerCase());
  }
  return [...keys].sort();
}

/**
 * Files of a git directory, besides its configuration, that change what git prints: local ignore
 * rules (a file hidden from `git status`), local attributes (`-diff` hides a change from `git show`),
 * grafts and the shallow list (history cut or rewired), alternates (objects from elsewhere). Before
 * the look-ups each is put back as the build left it, or removed where the build had none.
 */
export const LOOKUP_RESTORED_FILES = [
  'info/exclude',
  'info/attributes',
  'info/grafts',
  'shallow',
  'objects/info/alternates',
] as const;

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
  /** The repository's own configuration as built (base64): its working-tree layout settings are the build's. */
  repoConfig?: string;
  /** SHA-1 (hex) of every file the build left in a pack directory (objects/pack/), by path. */
  packs?: Record<string, string>;
}

/**
 * Python (run in the repository's directory, as the sandbox's uid, after the model's processes are
 * gone) that rewrites each configuration file git would read for it, keeping whitelisted keys only,
 * and, given what the build left, restores LOOKUP_RESTORED_FILES in every git directory the build
 * made or the repository names. A file it cannot parse becomes one git refuses, so nothing of it can
 * take effect unread. The program is lookup-config.py; this sets its EXTRA, BUILT and ENV (the
 * look-ups' environment, for the git it starts: clearing the index's bits, fsck of a changed pack).
 */
export function lookupConfigPy(extraKeys: readonly string[] = [], built?: BuiltGitFiles): string {
  const restore = built
    ? {
        repo: built.repoDir,
        dirs: built.gitDirs,
        files: built.files,
        names: LOOKUP_RESTORED_FILES,
        packs: built.packs ?? {},
        ...(built.repoConfig !== undefined ? { own: built.repoConfig } : {}),
      }
    : null;
  const builtText = restore ? JSON.stringify(restore) : 'None';
  const env = { ...lookupEnvironment(), LC_ALL: 'C' };
  return (
    `EXTRA = ${JSON.stringify([...extraKeys].map((k) => k.toLowerCase()))}\nBUILT ` +
    `= ${builtText}\nENV = ${JSON.stringify(env)}\n${LOOKUP_CONFIG_BODY}`
  );
}
