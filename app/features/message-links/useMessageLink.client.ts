import { useEffect, useState } from "react";
import type { Channel } from "~/features/channels/types";
import { messageLink, parseMessageLink, type MessageLink } from "~/features/message-links/links";
import type { OpenAt } from "~/features/search/useSearch.client";
import type { Notify } from "~/ui/Toast";
import { requestOpenAt } from "~/features/messages/open-at.client";

const PENDING = "chatcrypt_open_message";
export const NOT_A_MEMBER = "You are not a member of this channel";

/** Takes a message link out of the address (kept for this tab until the user is signed in and their conversations are known). */
export function takeMessageLinkFromAddress() {
  const link = parseMessageLink(window.location.href);
  if (!link) return;
  sessionStorage.setItem(PENDING, JSON.stringify(link));
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
}

/**
 * Opens the conversation at a linked message once the conversations are known, or says the user is not
 * a member (nothing else: no request is made for a conversation the user is not in). A search opening
 * a message afterwards takes over.
 */
export function useMessageLink(channels: readonly Channel[] | null, select: (id: string) => void, notify: Notify, searchOpenAt: unknown) {
  const [openAt, setOpenAt] = useState<OpenAt | null>(null);
  const [arrived, setArrived] = useState(0);
  // a link opened in this tab while signed in (pasted into the address bar)
  useEffect(() => {
    const onHash = () => {
      takeMessageLinkFromAddress();
      setArrived((n) => n + 1);
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => setOpenAt(null), [searchOpenAt]);
  useEffect(() => {
    const raw = sessionStorage.getItem(PENDING);
    if (!raw || !channels) return;
    sessionStorage.removeItem(PENDING);
    const link = JSON.parse(raw) as MessageLink;
    if (!channels.some((c) => c.id === link.channelId)) {
      notify(NOT_A_MEMBER, "error");
      return;
    }
    requestOpenAt(link.channelId, link.messageId);
    select(link.channelId);
    setOpenAt({ ...link, key: Date.now(), missing: () => notify("This message is no longer there.", "error") });
  }, [channels, select, notify, arrived]);
  return openAt;
}

/** Copies a message's link; says whether it worked. */
export async function copyMessageLink(link: MessageLink, notify: Notify) {
  try {
    await navigator.clipboard.writeText(messageLink(window.location.origin, link));
    notify("Link copied.");
  } catch {
    notify("The link could not be copied.", "error");
  }
}
