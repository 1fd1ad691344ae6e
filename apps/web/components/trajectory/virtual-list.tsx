'use client';

import { useEffect, useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';

export interface VirtualListHandle {
  /** Scrolls so that row `index` is in view (centred when it was out of view). */
  scrollToRow(index: number): void;
}

/**
 * A list of fixed-height rows that renders only the rows in its viewport (and a few around it), so
 * a trajectory of thousands of steps costs the DOM a screenful of rows.
 */
export function VirtualList({
  count,
  rowHeight,
  heightClass,
  overscan = 8,
  renderRow,
  label,
  testId,
  ref,
}: {
  count: number;
  rowHeight: number;
  /** Height of the scrolling box, as utility classes (it may differ by screen width). */
  heightClass: string;
  overscan?: number;
  renderRow: (index: number) => ReactNode;
  label: string;
  testId?: string;
  ref?: Ref<VirtualListHandle>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  useImperativeHandle(ref, () => ({
    scrollToRow(index: number) {
      const el = box.current;
      if (!el) return;
      const top = index * rowHeight;
      if (top < el.scrollTop || top + rowHeight > el.scrollTop + el.clientHeight)
        el.scrollTop = Math.max(0, top - el.clientHeight / 2);
    },
  }));

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div
        key={i}
        role="listitem"
        style={{ position: 'absolute', top: i * rowHeight, height: rowHeight, left: 0, right: 0 }}
      >
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      className={`overflow-y-auto ${heightClass}`}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid={testId}
    >
      <div role="list" aria-label={label} style={{ position: 'relative', height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
