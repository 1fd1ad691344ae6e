import { LabelledSelect } from './labelled-select';

/**
 * A one-choice GET form (label, select, button): works without JavaScript and from the keyboard,
 * and keeps the page's other parameters as hidden fields.
 */
export function SelectForm({
  label,
  name,
  value,
  options,
  hidden = {},
  button = 'Show',
  formLabel,
  action,
}: {
  label: string;
  name: string;
  value: string;
  options: { value: string; label: string }[];
  hidden?: Record<string, string | undefined>;
  button?: string;
  /** Accessible name of the form, e.g. "Choose the campaign". */
  formLabel: string;
  action?: string;
}) {
  return (
    <form method="get" action={action} className="flex flex-wrap items-center gap-2 text-sm" aria-label={formLabel}>
      {Object.entries(hidden).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <LabelledSelect name={name} label={label} value={value} options={options} inline />
      <button
        type="submit"
        className={
          'rounded border border-slate-300 bg-white px-2 py-1 ' +
          'hover:bg-slate-50 focus:outline-2 focus:outline-indigo-500'
        }
      >
        {button}
      </button>
    </form>
  );
}
