/** The viewer's small toolbar buttons (jumps, search, paging). */
export const VIEWER_BUTTON =
  'rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800 ' +
  'hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40';
