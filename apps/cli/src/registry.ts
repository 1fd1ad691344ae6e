import { ProviderRegistry } from '@gitbench/providers';

/**
 * The provider registry as every process builds it: the profile file in GITBENCH_PROFILES, else
 * gitbench.json / .gitbench.json here, then ~/.gitbench.json. Keys are read from the variables the
 * profiles name, never from a flag.
 */
export function loadRegistry(env: NodeJS.ProcessEnv = process.env): Promise<ProviderRegistry> {
  return ProviderRegistry.load({
    ...(env.GITBENCH_PROFILES ? { profilesFile: env.GITBENCH_PROFILES } : {}),
    cwd: process.cwd(),
    env,
  });
}
