import { useEffect, useRef, useState } from "react";
import { on } from "~/lib/events";
import { knownDeactivated } from "~/conversation/senders/profiles.client";
import type { CallView } from "./call-view";
import { callNames } from "./names";

/** Who went last, as the call says it. */
export interface WhoLeft {
  name: string;
  /** An administrator deactivated them: they did not leave, they were removed (ADR 0056). */
  removed: boolean;
}

/**
 * The last person who left the call while this page stayed in it (`null` once someone joins): in a
 * call of two, the one left behind was told nothing and waited alone. Only a connected call counts (a
 * page reconnecting loses its view of the others for a moment). Someone an administrator deactivated
 * is said to be removed, whether the page heard of the deactivation before or after the call lost them.
 */
export function useWhoLeft(view: CallView): WhoLeft | null {
  const [left, setLeft] = useState<{ identity: string; name: string } | null>(null);
  const [, heard] = useState(0);
  const known = useRef(new Map<string, string>());
  useEffect(() => {
    if (view.state !== "connected") return;
    const now = callNames(view.people);
    for (const person of view.people) if (!person.local && !known.current.has(person.identity)) setLeft(null);
    for (const [identity, name] of known.current) if (!now.has(identity)) setLeft({ identity, name });
    known.current = new Map([...now].filter(([identity]) => !view.people.find((p) => p.identity === identity)?.local));
  }, [view]);
  const userId = left?.identity.split(":")[0];
  useEffect(() => (userId ? on("member:deactivated", (id) => id === userId && heard((n) => n + 1)) : undefined), [userId]);
  return left && userId ? { name: left.name, removed: knownDeactivated(userId) } : null;
}
