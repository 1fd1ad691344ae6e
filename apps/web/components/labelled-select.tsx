/** A select with its visible label: stacked above it in filter bars, beside it in one-choice forms. */
export function LabelledSelect({
  name,
  label,
  value,
  options,
  inline = false,
}: {
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  inline?: boolean;
}) {
  return (
    <label
      className={
        inline ? 'flex max-w-full items-center gap-2 text-sm' : 'flex flex-col gap-1 text-xs font-medium text-slate-600'
      }
    >
      {label}
      <select
        name={name}
        defaultValue={value}
        className={
          `rounded border border-slate-300 bg-white text-sm text-slate-900 focus:outline-2 ` +
          `focus:outline-indigo-500 ${inline ? 'min-w-0 max-w-md px-2 py-1' : 'max-w-xs px-2 py-1.5'}`
        }
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
