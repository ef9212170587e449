import { useEffect } from "react";
import { titleUnread } from "~/ui/title";

/**
 * Shows the number of unread messages in the tab's title and on the installed app's icon (Badging
 * API, where the browser has it); both are cleared when the signed-in screen goes away.
 */
export function useUnreadBadge(unread: number) {
  useEffect(() => {
    titleUnread(unread);
    if (!("setAppBadge" in navigator)) return;
    const badge = unread > 0 ? navigator.setAppBadge(unread) : navigator.clearAppBadge();
    // Refused outside an installed app on some platforms: the title still tells.
    badge.catch(() => undefined);
  }, [unread]);

  useEffect(
    () => () => {
      titleUnread(0);
      if ("clearAppBadge" in navigator) navigator.clearAppBadge().catch(() => undefined);
    },
    [],
  );
}
