/** Download links for the data behind a page, in both formats the export API speaks. */
export function ExportLinks({
  href,
  what,
  noun,
  extra = [],
}: {
  href: (format: 'csv' | 'json') => string;
  what: string;
  noun?: string;
  /** Further exports beside the two plain ones, e.g. the artificialanalysis rows of a campaign. */
  extra?: { href: string; label: string }[];
}) {
  const link =
    'rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50 focus:outline-2 focus:outline-indigo-500';
  return (
    <div className="flex gap-2 text-sm" role="group" aria-label={`Export the ${what}`}>
      <a className={link} href={href('csv')} download>
        Export {noun ? `${noun} (CSV)` : 'CSV'}
      </a>
      <a className={link} href={href('json')} download>
        Export {noun ? `${noun} (JSON)` : 'JSON'}
      </a>
      {extra.map((e) => (
        <a key={e.href} className={link} href={e.href} download>
          {e.label}
        </a>
      ))}
    </div>
  );
}
