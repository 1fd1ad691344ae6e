'use client';

import { FieldError, toggle } from './fields';
import type { AgentOption } from './draft';

/**
 * Which agents drive the models in agent mode: GitBench's own loop (the default) and the third-party
 * agents the workers can run, each listed with its pinned version and the protocol it speaks. Every
 * chosen agent runs with every chosen model: each pair is a target.
 */
export function AgentsChoice({
  uid,
  agents,
  chosen,
  onChange,
  errors,
}: {
  uid: string;
  agents: AgentOption[];
  chosen: string[];
  onChange: (next: string[]) => void;
  errors: string[];
}) {
  return (
    <fieldset className="mt-3" aria-describedby={errors.length ? `${uid}-agents-err` : undefined}>
      <legend className="text-xs font-medium text-slate-600">Agents (each drives every chosen model)</legend>
      <ul className="mt-1 space-y-1 text-sm">
        {agents.map((a) => (
          <li key={a.name}>
            <label className="flex flex-wrap items-center gap-2">
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={chosen.includes(a.name)}
                onChange={() => onChange(toggle(chosen, a.name))}
              />
              <span className="font-medium">{a.name}</span>
              <span className="text-xs text-slate-500">
                {a.version ? `${a.displayName} ${a.version}, ${a.protocol}` : a.displayName}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <FieldError id={`${uid}-agents-err`} errors={errors} />
    </fieldset>
  );
}
