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
  // The list: a list just put on the page (another conversation) has its ref set only after these rows'
  // effects, so it is found as the box's parent too. The rows are tied to it at once: tied at a later
  // render, they would scroll it to where they think it is (its top), undoing a place put back meanwhile.
  const scroller = () => list.current ?? box.current?.parentElement ?? null;
  // where the rows start in the list now (below "Load older messages" and a notice, which come and go)
  const marginNow = () => {
    const element = box.current;
    const scrolling = scroller();
    if (!element || !scrolling) return undefined;
    return element.getBoundingClientRect().top - scrolling.getBoundingClientRect().top + scrolling.scrollTop;
  };
  // (measured after every render, set only when it moved)
  const [margin, setMargin] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- on every render, settles at once
  useLayoutEffect(() => {
    const top = marginNow();
    if (top !== undefined && Math.abs(top - margin) > 0.5) setMargin(top);
  });
  const rows = useVirtualizer({
    count,
    getScrollElement: scroller,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: keyOf,
    overscan: 6,
    scrollMargin: margin,
  });
  // A row measured for the first time (or again) keeps what is in view in place only when it is wholly
  // above the list's top. The reader's place is the top of the first message in view (reading-position.ts):
  // the row across the list's top keeps its top where it is whatever its height (by default, its first
  // measure moved the scroll by the error of its estimate: a reader coming back found her message lower).
  rows.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) =>
    item.end <= (instance.scrollOffset ?? 0) && (!instance.itemSizeCache.has(item.key) || instance.scrollDirection !== "backward");
  handle.current = {
    offsetOf: (index) => {
      rows.getVirtualItems(); // (brings the measurements up to date)
      const start = rows.measurementsCache[index]?.start;
      // (by where the rows start now: the margin of this render may be about to change)
      return start === undefined ? undefined : start - margin + (marginNow() ?? margin);
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
