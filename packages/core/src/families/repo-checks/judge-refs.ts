import type { ExecRecord } from '../../scoring/types';
import type { CheckOf } from './config';

/**
 * The judgements of the checks that read refs outside the branches: a bare remote's branch (remote_branch), the stash
 * (stash_entries), an annotated tag's message (tag_message) and a note. Their look-ups (checks.ts) report what git
 * reads and whether the storage behind it is the repository's own; these decide on what they report.
 */

/** A check's verdict, with what the look-up saw when it failed. */
export interface Judged {
  ok: boolean;
  detail: string;
  actual?: string;
}

export const short = (oid: string) => oid.slice(0, 12);

export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

export function judgeRemoteBranch(check: CheckOf<'remote_branch'>, out: string): Judged {
  const facts = lines(out);
  if (facts.includes('repository=missing')) return { ok: false, detail: `${check.repository} is not a git repository` };
  const linked = facts.find((l) => l.startsWith('linked='));
  if (linked)
    return {
      ok: false,
      detail:
        `${check.repository} is not a repository of its ` +
        `own: ${linked.slice(7)} is a link or names another git directory`,
      actual: out,
    };
  if (facts.includes('ref=missing')) return { ok: false, detail: `${check.ref} does not exist in ${check.repository}` };
  const tip = facts.find((l) => l.startsWith('tip='))?.slice(4) ?? '';
  const tree = facts.find((l) => l.startsWith('tree='))?.slice(5) ?? '';
  const lacking = check.contains.filter((c) => !facts.includes(`has=${c}`));
  const where = `${check.ref} in ${check.repository}`;
  // Records read before the listing was (no ref= line) are judged as they were.
  const ref = facts.find((l) => l.startsWith('ref='))?.slice(4);
  const listed = facts.filter((l) => l.startsWith('listed=')).map((l) => l.slice(7));
  if (ref !== undefined && (listed.length !== 1 || listed[0] !== ref)) {
    return {
      ok: false,
      detail:
        `${check.repository} lists ${check.ref} ${listed.length} ` +
        `time(s)${listed.length === 1 ? `, at ${short(listed[0]!)}, not ${short(ref)}` : ''}: ` +
        `one value, as every client sees it, expected`,
      actual: out,
    };
  }
  if (lacking.length > 0)
    return {
      ok: false,
      detail: `${where} (${short(tip)}) does not contain ${lacking.map(short).join(', ')}`,
      actual: out,
    };
  if (check.tree !== undefined && tree !== check.tree)
    return { ok: false, detail: `the tree of ${where} is ${short(tree)}, not ${short(check.tree)}`, actual: out };
  return {
    ok: true,
    detail:
      `${where} contains the ${check.contains.length} ` +
      `commit(s)${check.tree !== undefined ? ' and has the expected tree' : ''}`,
  };
}

const entries = (n: number) => `${n} entr${n === 1 ? 'y' : 'ies'}`;

export function judgeStash(check: CheckOf<'stash_entries'>, record: ExecRecord): Judged {
  const out = record.stdout.trim();
  if (record.exitCode !== 0) return { ok: false, detail: 'the stash could not be listed', actual: record.stderr };
  const facts = lines(out);
  const linked = facts.find((l) => l.startsWith('linked='));
  if (linked)
    return {
      ok: false,
      detail: `refs/stash is not the repository's own (${linked.slice(7)} is a link or a symbolic ref)`,
      actual: out,
    };
  // Records read before refs/stash and the parents were (no ref= line) are judged on the trees alone.
  const ref = facts.find((l) => l.startsWith('ref='))?.slice(4);
  const list = facts
    .filter((l) => !l.startsWith('ref='))
    .map((l) => {
      const [commit = '', tree = '', ...parents] = l.split(' ');
      return { commit, tree, parents };
    });
  const trees = list.map((e) => e.tree);
  const same = trees.length === check.trees.length && trees.every((t, i) => t === check.trees[i]);
  if (!same) {
    const wrong = trees.findIndex((t, i) => t !== check.trees[i]);
    return {
      ok: false,
      detail:
        trees.length !== check.trees.length
          ? `the stash holds ${entries(trees.length)}, ${check.trees.length} expected`
          : `stash@{${wrong}} has tree ${short(trees[wrong] ?? '')}, not ${short(check.trees[wrong] ?? '')}`,
      actual: out,
    };
  }
  if (ref !== undefined) {
    if (list.length > 0 && list[0]!.commit !== ref)
      return {
        ok: false,
        detail: `refs/stash holds ${short(ref)}, but the newest entry of its reflog is ${short(list[0]!.commit)}`,
        actual: out,
      };
    // What git stash apply takes for a stash: a commit with the HEAD it was made on and the index as parents (and the
    // untracked files').
    const odd = list.findIndex((e) => e.parents.length < 2 || e.parents.length > 3);
    if (odd >= 0)
      return {
        ok: false,
        detail:
          `stash@{${odd}} (${short(list[odd]!.commit)}) is not a ` +
          `stash: ${list[odd]!.parents.length} parent(s), where git stash makes 2 or 3`,
        actual: out,
      };
  }
  return { ok: true, detail: `the stash holds the ${entries(check.trees.length)} expected` };
}

/** Text as written, but for blank space at its end (git adds a newline; an editor may add more). */
const trimEnd = (t: string) => t.replace(/\s+$/, '');

export function judgeTagMessage(check: CheckOf<'tag_message'>, record: ExecRecord): Judged {
  const out = record.stdout;
  if (out.startsWith('tag=missing')) return { ok: false, detail: `the tag ${check.tag} does not exist` };
  const type = /^type=(\w+)\n/.exec(out)?.[1];
  if (type !== 'tag')
    return {
      ok: false,
      detail:
        `${check.tag} is ${type === 'commit' ? 'a lightweight tag' : `a ${type ?? 'unreadable'} object`}, ` +
        `not an annotated tag`,
    };
  // The tag object: header lines, a blank line, the message (and a signature, which a message to compare has not).
  const body = out.slice(out.indexOf('\n') + 1);
  const blank = body.indexOf('\n\n');
  const message = blank < 0 ? '' : body.slice(blank + 2).split('-----BEGIN PGP SIGNATURE-----')[0]!;
  return trimEnd(message) === trimEnd(check.message)
    ? { ok: true, detail: `${check.tag} is annotated, with the expected message` }
    : { ok: false, detail: `the message of ${check.tag} is not the expected one`, actual: message.slice(0, 2000) };
}

export function judgeNote(check: CheckOf<'note'>, record: ExecRecord): Judged {
  const out = record.stdout;
  if (out.startsWith('rev=missing')) return { ok: false, detail: `${check.rev} does not name a commit` };
  if (out.startsWith('note=missing')) return { ok: false, detail: `${check.rev} has no note in ${check.ref}` };
  if (!out.startsWith('note=found\n'))
    return { ok: false, detail: `the note on ${check.rev} could not be read`, actual: record.stderr };
  const text = out.slice('note=found\n'.length);
  return trimEnd(text) === trimEnd(check.text)
    ? { ok: true, detail: `${check.rev} has the expected note` }
    : { ok: false, detail: `the note on ${check.rev} is not the expected one`, actual: text.slice(0, 2000) };
}
