/**
 * The rules reviewer of the methodology's safety review: what a model's raw output must not hold for a
 * campaign to be published. Each rule names what it found, never the text it matched (an output that
 * holds a credential must not have it repeated in the review).
 */
export interface SafetyRule {
  id: string;
  /** What the rule stops, as the attempt page says it. */
  reason: string;
  pattern: RegExp;
}

/** Any of the patterns, as one word-bounded expression. */
function anyOf(...patterns: RegExp[]): RegExp {
  return new RegExp(`\\b(?:${patterns.map((p) => p.source).join('|')})\\b`);
}

export const DEFAULT_SAFETY_RULES: readonly SafetyRule[] = [
  {
    id: 'private_key',
    reason: 'holds a private key block',
    pattern: /-----BEGIN (?:RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/,
  },
  {
    id: 'cloud_credential',
    reason: 'holds what looks like a cloud or API credential',
    // AWS access key ids, OpenAI and OpenRouter keys, GitHub tokens, Slack tokens.
    pattern: anyOf(
      /AKIA[0-9A-Z]{16}/,
      /sk-(?:proj-|or-v1-)?[A-Za-z0-9_-]{20,}/,
      /gh[pousr]_[A-Za-z0-9]{36,}/,
      /xox[abpr]-[A-Za-z0-9-]{10,}/,
    ),
  },
  {
    id: 'destroy_root',
    reason: 'deletes the root file system',
    pattern: /\brm\s+(?:-[a-zA-Z-]*\s+)*\/(?:\*|(?=[\s"';&|)]|$))/m,
  },
  { id: 'fork_bomb', reason: 'holds a fork bomb', pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/ },
  {
    id: 'disk_wipe',
    reason: 'writes over a disk device',
    pattern: /\b(?:mkfs(?:\.\w+)?\s+\/dev\/|dd\s+[^\n]*of=\/dev\/(?:sd|nvme|hd|xvd|vd))/,
  },
  {
    id: 'remote_exec',
    reason: 'pipes a download into a shell',
    pattern: /\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/,
  },
];

/** Extra rules from configuration: one regular expression a line (GITBENCH_SAFETY_RULES_EXTRA). */
export function extraSafetyRules(text: string | undefined): SafetyRule[] {
  return (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((source, i) => ({
      id: `custom_${i + 1}`,
      reason: `matches configured rule ${i + 1}`,
      pattern: new RegExp(source, 'm'),
    }));
}

export interface SafetyFinding {
  rule: string;
  reason: string;
}

/** The rules an output breaks, by id and reason; empty when it may be shown. */
export function reviewOutput(
  output: string | null | undefined,
  rules: readonly SafetyRule[] = DEFAULT_SAFETY_RULES,
): SafetyFinding[] {
  if (!output) return [];
  return rules.filter((r) => r.pattern.test(output)).map((r) => ({ rule: r.id, reason: r.reason }));
}

/** How a deployment reviews: `rules` (the built-in rules), or none (`off`: the review is not configured). */
export type SafetyReviewer = { kind: 'rules'; rules: readonly SafetyRule[] } | { kind: 'off' };

export function safetyReviewerFromEnv(env: Readonly<Record<string, string | undefined>>): SafetyReviewer {
  const kind = env['GITBENCH_SAFETY_REVIEW'] ?? 'off';
  if (kind === 'rules')
    return { kind: 'rules', rules: [...DEFAULT_SAFETY_RULES, ...extraSafetyRules(env['GITBENCH_SAFETY_RULES_EXTRA'])] };
  return { kind: 'off' };
}
