import { BUILTIN_MODELS } from '@gitbench/providers';
import type { ParsedArgs } from '../args';
import { loadRegistry } from '../registry';
import { EXIT } from '../exit';

/**
 * `gitbench profiles [--json]`: the built-in models and the configured profiles, with the name of
 * each key's variable and whether it is set here. Never a key.
 */
export async function profilesCommand(args: ParsedArgs): Promise<number> {
  const registry = await loadRegistry();
  const profiles = registry.listProfiles();
  if (args.flags.has('json')) {
    const out = {
      profilesFile: registry.profilesFile,
      judgeProfile: registry.judgeProfile,
      builtin: BUILTIN_MODELS,
      profiles,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return EXIT.ok;
  }
  const lines = ['built-in models (no endpoint, no key; profile "builtin"):'];
  const width = Math.max(...BUILTIN_MODELS.map((m) => m.usage.length));
  for (const m of BUILTIN_MODELS) lines.push(`  ${m.usage.padEnd(width)}  ${m.description}`);
  lines.push('');
  if (!registry.profilesFile)
    lines.push('no profile file: set GITBENCH_PROFILES, or create gitbench.json here or ~/.gitbench.json');
  else lines.push(`profiles from ${registry.profilesFile}:`);
  for (const p of profiles) {
    const key = p.apiKeyEnv ? `key ${p.apiKeyEnv} (${p.apiKey})` : 'no key';
    lines.push(
      `  ${p.name}${p.isJudge ? ' [judge]' : ''}: ${p.provider} ${p.baseUrl ?? '(default endpoint)'}, ${key}, ` +
        `timeout ${p.timeoutMs / 1000} s, ${p.retryCount} tries`,
    );
    for (const model of p.models) lines.push(`    ${model}`);
  }
  if (registry.profilesFile && profiles.length === 0) lines.push('  (none)');
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
