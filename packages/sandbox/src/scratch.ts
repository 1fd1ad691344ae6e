import type { BatchStep } from './types';

/**
 * A step that returns a used sandbox to the state of a fresh one: the workspace, HOME and the
 * temporary directory emptied, except the running batch's own `gb.*` directory and the directory of
 * the global git configuration its preamble set up (GIT_CONFIG_GLOBAL), which later steps still use. Both drivers give
 * every sandbox private directories for all three, and nothing else is writable in a Docker sandbox,
 * so after this step the next command sees what it would see in a new sandbox. That lets one sandbox
 * build many fixture repositories in a row, each exactly as it would be built alone.
 *
 * It refuses to touch directories that are not a sandbox's own (a HOME of /root, a workspace outside
 * the sandbox), so a misconfigured environment fails the step instead of emptying a real home.
 */
export function resetScratchStep(id: string, opts: { keepWorkspace?: boolean } = {}): BatchStep {
  return { id, command: opts.keepWorkspace ? RESET_HOME_AND_TMP : RESET_SCRATCH, timeoutMs: 60_000 };
}

// Globs and one `rm` instead of `find` runs: this step runs before every fixture a build sandbox builds.
// With the workspace kept (keepWorkspace), HOME and the temporary directory are as in a sandbox that
// has just had a workspace restored into it: what an attempt's sandbox holds before its first command.
const resetScript = (workspace: boolean) => String.raw`set -u
own() {
  case "$1" in
    "$2"|*/gitbench-sandbox-*/"$3") return 0 ;;
    *) echo "refusing to empty $1: not a sandbox directory" >&2; exit 64 ;;
  esac
}
tmp="${'$'}{TMPDIR:-/tmp}"
own "$PWD" /work work; own "$HOME" /home/sandbox home; own "$tmp" /tmp tmp
shopt -s dotglob nullglob
keep=none; [ -n "${'$'}{GIT_CONFIG_GLOBAL:-}" ] && keep="${'$'}{GIT_CONFIG_GLOBAL%/*}"
gone=(${workspace ? '"$PWD"/* ' : ''}"$HOME"/*)
for p in "$tmp"/*; do case "$p" in "$tmp"/gb.*|"$keep") ;; *) gone+=("$p") ;; esac; done
[ ${'$'}{#gone[@]} -eq 0 ] || rm -rf -- "${'$'}{gone[@]}" 2>/dev/null
left=(${workspace ? '"$PWD"/* ' : ''}"$HOME"/*)
[ ${'$'}{#left[@]} -eq 0 ] || { echo "could not empty: ${'$'}{left[*]:0:3}" >&2; exit 65; }`;
const RESET_SCRATCH = resetScript(true);
const RESET_HOME_AND_TMP = resetScript(false);
