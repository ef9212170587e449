import { useEffect, useState } from "react";
import { on } from "~/lib/events";
import { sessionEndReason, SESSION_ENDED_MESSAGE } from "~/lib/errors";
import { standingChanged, standingRead } from "~/features/roles/standing.client";

/** How often an open console in view asks for the viewer's role (a deactivation or a demotion shows without a click). */
const CHECK_EVERY_MS = 30_000;

/**
 * The console viewer's role (docs/decisions/0055-admin-console.md), read again when the server refuses
 * one of the console's requests (403) and when the page comes back into view: a viewer demoted
 * meanwhile gets the console's refusal, not a refusal in each section. The console opens no live
 * stream: an open stream counts as an open page, and holds back the viewer's Web Push
 * (pocketbase/push_candidates.go); in view, it asks every CHECK_EVERY_MS instead. `ended`: the server
 * ended the session (deactivated, signed out elsewhere), why: the console shows nothing more. (Rendered
 * on the server too: the reading runs in the browser only.)
 */
export function useConsoleRole(viewer: { id: string; role: string }): { role: string; ended: string | null } {
  const [role, setRole] = useState(viewer.role);
  const [ended, setEnded] = useState<string | null>(null);
  useEffect(() => {
    const again = () => void standingChanged(viewer.id);
    let over = false;
    const stopEnded = on("session:ended", (reason) => {
      // (once: the sign-out's own request may be refused too)
      if (over) return;
      over = true;
      setEnded(sessionEndReason(reason) ?? SESSION_ENDED_MESSAGE);
      // (the keys this browser holds go as a sign-out takes them; the server's answer no longer matters)
      void import("~/features/auth/auth.client").then((m) => m.signOut()).catch(() => undefined);
    });
    const checking = setInterval(() => document.visibilityState === "visible" && again(), CHECK_EVERY_MS);
    const stopRead = on("standing:read", () => {
      const read = standingRead(viewer.id);
      if (read) setRole(read.role);
    });
    const stopRefused = on("requests:refused", (path) => {
      if (path.startsWith("/api/admin")) again();
    });
    const onShown = () => {
      if (document.visibilityState === "visible") again();
    };
    document.addEventListener("visibilitychange", onShown);
    return () => {
      stopEnded();
      clearInterval(checking);
      stopRead();
      stopRefused();
      document.removeEventListener("visibilitychange", onShown);
    };
  }, [viewer.id]);
  return { role, ended };
}
