import { useEffect, useMemo, useRef, useState } from "react";
import type { Channel } from "~/conversation/channels/types";
import { messageLink, parseMessageLink, type MessageLink } from "~/features/message-links/links";
import type { OpenAt } from "~/features/search/useSearch.client";
import type { Notify } from "~/ui/Toast";
import { MESSAGE_GONE, requestOpenAt } from "~/features/messages/open-at.client";
import { keepPathOnly, useAddress } from "~/features/address/address.client";
import { isMessageId } from "~/features/address/address";

const MISSING_SEALED = "This message cannot be shown here: it was deleted, or sent before this device joined the conversation.";

/** A link of the earlier form (`/#message=...`) in the address becomes the message's address, in the same entry. */
export function takeMessageLinkFromAddress() {
  const link = parseMessageLink(window.location.href);
  if (link) keepPathOnly(new URL(messageLink(window.location.origin, link)).pathname);
  else if (window.location.hash.startsWith("#message=")) keepPathOnly();
}

/**
 * Opens the conversation the address names at the message it names (`/c/<id>/m/<message>`), once the
 * conversations are known. For a conversation the person is not in, nothing is asked for: the page says
 * it is not available. A search opening a message afterwards takes over.
 */
export function useMessageLink(channels: readonly Channel[] | null, notify: Notify, searchOpenAt: unknown) {
  const { place, move } = useAddress();
  const { conversationId } = place;
  // (a reference that cannot be an id names no message: the conversation opens and says so below)
  const message = place.message && isMessageId(place.message) ? place.message : null;
  const malformed = place.message !== null && message === null;
  // said before the conversation's history starts (its first page is then the one around the message)
  const asked = useRef(0);
  if (conversationId && message && asked.current !== move) {
    asked.current = move;
    requestOpenAt(conversationId, message);
  }
  // a link of the earlier form pasted into the address bar of an open page
  useEffect(() => {
    window.addEventListener("hashchange", takeMessageLinkFromAddress);
    return () => window.removeEventListener("hashchange", takeMessageLinkFromAddress);
  }, []);
  const open = conversationId ? channels?.find((c) => c.id === conversationId) : undefined;
  const member = Boolean(open);
  // (a sealed channel or a direct conversation reads from when this device joined: an older message is there, unreadable here)
  const missingText = open?.sealed || open?.direct ? MISSING_SEALED : MESSAGE_GONE;
  const openAt = useMemo<OpenAt | null>(
    () =>
      conversationId && message && member
        ? {
            channelId: conversationId,
            messageId: message,
            created: "",
            key: move,
            missing: () => notify(missingText, "error"),
          }
        : null,
    [conversationId, message, member, move, notify, missingText],
  );
  useEffect(() => {
    if (malformed && member) notify(missingText, "error");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per move to such an address
  }, [malformed, member, move]);
  // a search result opened while the address names a message
  const [searchedAt, setSearchedAt] = useState(-1);
  const moveRef = useRef(move);
  moveRef.current = move;
  useEffect(() => {
    if (searchOpenAt) setSearchedAt(moveRef.current);
  }, [searchOpenAt]);
  return searchedAt === move ? null : openAt;
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
