import { useEffect, useState } from "react";
import { on } from "~/lib/events";
import { standingChanged, standingRead } from "~/features/roles/standing.client";

/**
 * The console viewer's role (docs/decisions/0055-admin-console.md), read again when the server refuses
 * one of the console's requests (403) and when the page comes back into view: a viewer demoted
 * meanwhile gets the console's refusal, not a refusal in each section. The console opens no live
 * stream: an open stream counts as an open page, and holds back the viewer's Web Push
 * (pocketbase/push_candidates.go). (Rendered on the server too: the reading runs in the browser only.)
 */
export function useConsoleRole(viewer: { id: string; role: string }): string {
  const [role, setRole] = useState(viewer.role);
  useEffect(() => {
    const again = () => void standingChanged(viewer.id);
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
      stopRead();
      stopRefused();
      document.removeEventListener("visibilitychange", onShown);
    };
  }, [viewer.id]);
  return role;
}
