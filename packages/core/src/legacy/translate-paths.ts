/**
 * Upstream built each fixture's repository in a temporary workspace of its own,
 * `<tmp>/<benchmark>_<id>_<8 random characters>/<benchmark>_<id>`, with bare remotes and worktrees
 * beside the repository, and its prompts show that path (`git worktree list` prints it). An answer
 * that names it (`cd /tmp/worktree_usage_f003_94otqyek/feature-wt`) meant the workspace this run
 * restored, which the sandbox names in GITBENCH_WORKSPACE. Only paths the recorded prompt shows are
 * mapped; the macOS spelling without `/private` is mapped too, as the model may have written either.
 */

export const WORKSPACE_VARIABLE = 'GITBENCH_WORKSPACE';

export interface PathTranslation {
  /** Upstream workspace paths found in the recorded prompt, longest first. */
  workspaces: string[];
  translate(text: string): string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function workspaceTranslation(recordedPrompt: string, repoDir: string): PathTranslation {
  const found = new Set<string>();
  const pattern = new RegExp(`/[^\\s'"\`]*?/${escapeRegExp(repoDir)}_[a-z0-9_]{8}(?=/|$|[\\s'"\`])`, 'gm');
  for (const match of recordedPrompt.matchAll(pattern)) {
    found.add(match[0]);
    if (match[0].startsWith('/private/')) found.add(match[0].slice('/private'.length));
  }
  const workspaces = [...found].sort((a, b) => b.length - a.length);
  return {
    workspaces,
    translate: (text) => (workspaces.length === 0 ? text : replaceQuoted(text, workspaces)),
  };
}

/**
 * Replace each workspace path with the variable, written so the shell expands it where the path
 * stood: bare or in double quotes as `${GITBENCH_WORKSPACE}`, inside single quotes by closing them
 * around `"${GITBENCH_WORKSPACE}"`. Quoting is read per line, as each line is one command.
 */
function replaceQuoted(text: string, workspaces: readonly string[]): string {
  const variable = `\${${WORKSPACE_VARIABLE}}`;
  let out = '';
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length;) {
    const ch = text[i] as string;
    const hit = workspaces.find((w) => text.startsWith(w, i));
    if (hit) {
      out += quote === "'" ? `'"${variable}"'` : variable;
      i += hit.length;
      continue;
    }
    if (ch === '\n') quote = null;
    else if (ch === '\\' && quote !== "'") {
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    } else if ((ch === "'" || ch === '"') && (quote === null || quote === ch)) quote = quote === null ? ch : null;
    out += ch;
    i++;
  }
  return out;
}
