'use client';

import { useEffect, useState } from 'react';
import type { AgentOption, Profile, Suite } from './draft';

export interface FormOptions {
  profiles: Profile[];
  suites: Suite[];
  agents: AgentOption[];
}

/** The configured profiles and the suites this web app serves, loaded once; `onLoaded` picks a default suite. */
export function useFormOptions(onLoaded: (options: FormOptions) => void) {
  const [options, setOptions] = useState<FormOptions | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    fetch('/api/profiles')
      .then(async (r) => {
        if (!r.ok) throw new Error(`the server answered ${r.status}`);
        const body = (await r.json()) as FormOptions;
        setOptions(body);
        onLoaded(body);
      })
      .catch((e: Error) => setLoadError(`Could not load the configured profiles and suites: ${e.message}.`));
    // Loaded once: the callback's identity changes every render and must not refetch.
  }, []);
  return { options, loadError };
}
