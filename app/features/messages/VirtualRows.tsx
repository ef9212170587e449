// The rows of a long message list, only those in and near view mounted (loaded on its own, when a list
// first grows long: ADR 36). The scrolling element stays the list's own; each row is measured as it is.
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useLayoutEffect, useRef, useState, type MutableRefObject, type ReactNode, type RefObject } from "react";

export interface RowsHandle {
  /** The list's scrollTop that puts row `index`'s top at the list's top (estimated until measured). */
  offsetOf: (index: number) => number | undefined;
  /** The row at the list's scrollTop `offset`, with its top's scrollTop. */
  rowAt: (offset: number) => { index: number; start: number } | undefined;
}

interface Props {
  count: number;
  keyOf: (index: number) => string;
  row: (index: number) => ReactNode;
  list: RefObject<HTMLDivElement>;
  handle: MutableRefObject<RowsHandle | null>;
}

const ESTIMATED_ROW_PX = 72;

export function VirtualRows({ count, keyOf, row, list, handle }: Props) {
  const box = useRef<HTMLDivElement>(null);
  // where the rows start in the list (below "Load older messages" and a notice, which come and go):
  // measured after every render, set only when it moved
  const [margin, setMargin] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- on every render, settles at once
  useLayoutEffect(() => {
    const element = box.current;
    const scroller = list.current;
    if (!element || !scroller) return;
    const top = element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    if (Math.abs(top - margin) > 0.5) setMargin(top);
  });
  const rows = useVirtualizer({
    count,
    getScrollElement: () => list.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: keyOf,
    overscan: 6,
    scrollMargin: margin,
  });
  handle.current = {
    offsetOf: (index) => {
      rows.getVirtualItems(); // (brings the measurements up to date)
      return rows.measurementsCache[index]?.start;
    },
    rowAt: (offset) => rows.getVirtualItemForOffset(offset),
  };
  return (
    <div ref={box} className="virtual-rows" style={{ height: rows.getTotalSize() }}>
      {rows.getVirtualItems().map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={rows.measureElement}
          className="virtual-row"
          style={{ transform: `translateY(${item.start - margin}px)` }}
        >
          <Row index={item.index} row={row} />
        </div>
      ))}
    </div>
  );
}

/** One row: rendered again when the list's content changes, not when scrolling moves it. */
const Row = memo(function Row({ index, row }: { index: number; row: (index: number) => ReactNode }) {
  return row(index);
});
