import { useEffect, useState } from "react";

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

const same = (a: Box | null, b: Box | null) =>
  a === b || (!!a && !!b && a.top === b.top && a.left === b.left && a.width === b.width && a.height === b.height);

/**
 * Where the open conversation is on the screen (or its `part`: the composer), while `watch` is true (the
 * expanded call covers it; the call window stays above the composer); null when none is open.
 */
export function useConversationBox(watch: boolean, part = ".chat-main"): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  useEffect(() => {
    if (!watch) return setBox(null);
    let element: Element | null = null;
    let frame = 0;
    const read = () => {
      frame = 0;
      const found = document.querySelector(part);
      if (found !== element) {
        if (element) resized.unobserve(element);
        if (found) resized.observe(found);
        element = found;
      }
      const rect = found?.getBoundingClientRect();
      const next = rect ? { top: rect.top, left: rect.left, width: rect.width, height: rect.height } : null;
      setBox((previous) => (same(previous, next) ? previous : next));
    };
    // (at most once a frame, whatever changed)
    const measure = () => void (frame ||= requestAnimationFrame(read));
    const resized = new ResizeObserver(measure);
    // another conversation opened, a side panel opened or closed: the conversation's box moves
    const changes = new MutationObserver(measure);
    changes.observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", measure);
    read();
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
      changes.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [watch, part]);
  return box;
}
