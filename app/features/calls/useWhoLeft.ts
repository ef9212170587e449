import { useEffect, useRef, useState } from "react";
import type { CallView } from "./call-view";
import { callNames } from "./names";

/**
 * The name of the last person who left the call while this page stayed in it (`null` once someone
 * joins): in a call of two, the one left behind was told nothing and waited alone. Only a connected
 * call counts (a page reconnecting loses its view of the others for a moment).
 */
export function useWhoLeft(view: CallView): string | null {
  const [left, setLeft] = useState<string | null>(null);
  const known = useRef(new Map<string, string>());
  useEffect(() => {
    if (view.state !== "connected") return;
    const now = callNames(view.people);
    for (const person of view.people) if (!person.local && !known.current.has(person.identity)) setLeft(null);
    for (const [identity, name] of known.current) if (!now.has(identity)) setLeft(name);
    known.current = new Map([...now].filter(([identity]) => !view.people.find((p) => p.identity === identity)?.local));
  }, [view]);
  return left;
}
