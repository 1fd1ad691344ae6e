'use client';

import { useState } from 'react';

/**
 * Copies `text` to the clipboard and says so. The Clipboard API exists only in secure contexts (https
 * or localhost); a self-hosted dashboard reached over plain http on a LAN gets the older selection copy.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        ok = true;
      } else {
        const area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.style.position = 'fixed';
        area.style.opacity = '0';
        document.body.appendChild(area);
        area.select();
        ok = document.execCommand('copy');
        area.remove();
      }
    } catch {
      ok = false;
    }
    setState(ok ? 'copied' : 'failed');
    setTimeout(() => setState('idle'), 1500);
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={`Copy ${label}`}
      className={
        'rounded border border-slate-300 bg-white px-1.5 py-0.5 font-sans text-[11px] ' +
        'font-medium text-slate-600 hover:bg-slate-50 focus:outline-2 focus:outline-indigo-500'
      }
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
