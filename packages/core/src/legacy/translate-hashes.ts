/**
 * Upstream built its fixture repositories with real clocks, so its commit ids differ from ours. An
 * answer that names upstream's commits is mapped onto ours through the prompt upstream rendered: a
 * line of that prompt that shows a commit's subject next to an id tells which of our commits the id
 * meant, as does a `commit <id>` header of `git log`/`git show` output followed by the subject.
 * Only subjects that are unique in our repository are used.
 */
const HEX = /\b[0-9a-f]{7,40}\b/g;

export interface HashTranslation {
  /** upstream id (as printed in the recorded prompt) → our full id */
  map: Map<string, string>;
  translate(text: string): string;
}

export function hashTranslation(
  recordedPrompt: string,
  ours: readonly { hash: string; subject: string }[],
): HashTranslation {
  const bySubject = new Map<string, string | null>();
  for (const c of ours) {
    if (c.subject.trim() === '') continue;
    bySubject.set(c.subject, bySubject.has(c.subject) && bySubject.get(c.subject) !== c.hash ? null : c.hash);
  }
  const subjects = [...bySubject.entries()]
    .filter((e): e is [string, string] => e[1] !== null)
    .sort((a, b) => b[0].length - a[0].length);
  const map = new Map<string, string>();
  const lines = recordedPrompt.split('\n');
  // `git log` and `git show` print a commit as a `commit <id>` header, then its subject indented
  // below the first blank line.
  lines.forEach((line, i) => {
    const header = /^commit ([0-9a-f]{7,40})\b/.exec(line);
    if (!header) return;
    const blank = lines.findIndex((l, j) => j > i && l.trim() === '');
    const subjectLine = blank < 0 ? undefined : lines[blank + 1];
    const subject = subjectLine?.startsWith('    ') ? subjectLine.trim() : undefined;
    const mine = subject === undefined ? undefined : bySubject.get(subject);
    if (mine && !map.has(header[1] as string)) map.set(header[1] as string, mine);
  });
  for (const line of lines) {
    const ids = line.match(HEX);
    if (!ids || ids.length !== 1) continue;
    const id = ids[0]!;
    const rest = line.replace(id, ' ');
    const hit = subjects.find(([subject]) => containsSubject(rest, subject));
    if (hit && !map.has(id)) map.set(id, hit[1]);
  }
  return {
    map,
    translate(text: string): string {
      if (map.size === 0) return text;
      return text.replace(/\b[0-9a-fA-F]{7,40}\b/g, (token) => {
        const lower = token.toLowerCase();
        for (const [theirs, mine] of map) {
          if (theirs.startsWith(lower) || lower.startsWith(theirs)) return mine.slice(0, token.length);
        }
        return token;
      });
    },
  };
}

/** The subject must stand alone in the line, not be the start of a longer word. */
function containsSubject(line: string, subject: string): boolean {
  let from = 0;
  for (;;) {
    const i = line.indexOf(subject, from);
    if (i < 0) return false;
    const after = line[i + subject.length];
    if (after === undefined || !/[A-Za-z0-9_]/.test(after)) return true;
    from = i + 1;
  }
}
