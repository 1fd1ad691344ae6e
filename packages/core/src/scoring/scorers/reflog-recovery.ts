import { REFLOG_PROBE, hashNames, mentionedHashes, parseReflog, readProbe, reflogSelectorPattern } from '../probes';
import { check, flagOption, verdict } from '../result';
import type { Scorer } from '../types';

/**
 * A lost commit recovered through the reflog. `expected` is text of its reflog line (usually the
 * subject); the target hashes are those of the attempt's reflog lines containing it. The answer
 * passes when it mentions a prefix of a target hash, or a HEAD@{n} selector whose entry is a
 * target, or (with `accept_message`) the expected text itself. With `exclusive: true` (our addition)
 * it also fails when it names another reflog commit or selector besides the target, so a hedge that
 * lists several candidates is not a hit.
 */
export const reflogRecoveryScorer: Scorer = {
  type: 'reflog_recovery',
  readsRepositoryOnly: true,
  plan: () => ({ answerCommands: [], probes: [REFLOG_PROBE] }),
  score({ fixture, output, evidence }) {
    const probe = readProbe(evidence, REFLOG_PROBE.id, 'target entry');
    if (!probe.ok) return verdict(false, 0, [probe.problem]);
    const entries = parseReflog(probe.record.stdout);
    const targets = new Set(
      entries.filter((entry) => entry.line.includes(fixture.expected)).map((entry) => entry.hash),
    );
    if (targets.size === 0) {
      return verdict(false, 0, [
        check('target entry', false, `no reflog entry contains ${JSON.stringify(fixture.expected)}`),
      ]);
    }
    const bySelector = new Map(entries.map((entry) => [entry.selector, entry.hash]));
    const namesTarget = (h: string) => [...targets].some((target) => hashNames(target, h));
    const hashes = mentionedHashes(output);
    const selectors: string[] = output.match(reflogSelectorPattern()) ?? [];
    const hash = hashes.find(namesTarget);
    const selector = selectors.find((s) => targets.has(bySelector.get(s) ?? ''));
    const message = flagOption(fixture, 'accept_message') && output.includes(fixture.expected);
    const found = hash !== undefined || selector !== undefined || message;
    // Other reflog commits or selectors the answer names besides the target: a hedge, under `exclusive`.
    const others = [
      ...new Set([
        ...hashes.filter((h) => !namesTarget(h) && entries.some((entry) => hashNames(entry.hash, h))),
        ...selectors.filter((s) => !targets.has(bySelector.get(s) ?? '')),
      ]),
    ];
    const exclusive = flagOption(fixture, 'exclusive');
    const passed = found && !(exclusive && others.length > 0);
    const checks = [
      check('target entry', true, `${JSON.stringify(fixture.expected)} is ${[...targets].join(', ')}`),
      check(
        'names the lost commit',
        found,
        hash
          ? `answer mentions ${hash}`
          : selector
            ? `answer mentions ${selector}`
            : message
              ? 'answer mentions the expected text'
              : 'answer mentions no target hash prefix or matching HEAD@{n} selector',
        [...targets].join('\n'),
      ),
    ];
    if (exclusive) {
      checks.push(
        check(
          'no other entry named',
          others.length === 0,
          others.length === 0 ? 'only the target is named' : `answer also names ${others.join(', ')}`,
        ),
      );
    }
    return verdict(passed, passed ? 1 : 0, checks);
  },
};
