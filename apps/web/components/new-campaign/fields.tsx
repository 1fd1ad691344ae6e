import type { ReactNode } from 'react';

/** The form's text inputs and selects share one look. */
export const inputClass =
  'mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-2 focus:outline-indigo-500';

export function FieldError({ errors, id }: { errors?: string[]; id: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-xs text-rose-700" role="alert">
      {errors.join(' ')}
    </p>
  );
}

/** What the server refused about the whole form, above the fields. */
export function FormErrors({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="rounded border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800" role="alert">
      {messages.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}

/**
 * A labelled input whose error sits outside the label (so it is not read as part of the field's name)
 * and is tied to the input with aria-describedby.
 */
export function TextField({
  id,
  label,
  value,
  onChange,
  errors,
  hint,
  type = 'text',
  min,
  max,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors?: string[];
  hint?: string;
  type?: 'text' | 'number';
  min?: number;
  max?: number;
}) {
  const describedBy =
    [hint ? `${id}-hint` : null, errors?.length ? `${id}-err` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="text-sm">
      <label className="font-medium" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        min={min}
        max={max}
        className={`${inputClass} aria-[invalid=true]:border-rose-400`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!errors?.length}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-err`} errors={errors} />
    </div>
  );
}

export function Fieldset({ legend, children, error }: { legend: string; children: ReactNode; error?: ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {children}
      {error}
    </fieldset>
  );
}

export function toggle(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}
