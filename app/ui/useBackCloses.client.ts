import { useEffect, useRef } from "react";
import { ADDRESS_EVENT, CHAT_ADDRESS } from "~/lib/address-event";
import { afterOwnSteps, coverShown, OWN_ENTRY, ownEntryOnTop, ownStepUnderWay, stepBack } from "~/lib/history-steps.client";
import { narrowNow } from "~/ui/useNarrow.client";

let marks = 0;

/**
 * On a phone, a panel that covers the conversation (Members, Pinned, News) and every dialog close with
 * the system's Back, as a thread does: shown, it adds a history entry at the same address, which Back
 * takes away (closing it); closed another way (its own Back button, Esc), it takes its entry back. Only
 * at the chat's addresses, whose Back and Forward the page handles itself (root.tsx). With `staysOnMoves`,
 * a move the page makes (which takes the entry away first, features/address) leaves it open: only the
 * person's Back closes it (the phone's channel drawer, which stays open over a channel left from it).
 */
export function useBackCloses(open: boolean, onClose: () => void, { staysOnMoves = false } = {}) {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open || !narrowNow() || !CHAT_ADDRESS.test(window.location.pathname)) return;
    const mark = `panel-${++marks}`;
    let pushed = false;
    let closed = false;
    let popped = false;
    // (after a step back under way: it would otherwise take this entry instead of its own)
    afterOwnSteps(() => {
      if (closed) return;
      // (the panel's entry was not opened from another address: backTo)
      const { chatcryptFrom: _from, ...state } = (window.history.state ?? {}) as Record<string, unknown>;
      window.history.pushState({ ...state, [OWN_ENTRY]: mark }, "", window.location.href);
      pushed = true;
      coverShown(mark, true);
    });
    // (Back between the chat's addresses comes as the address event: root.tsx)
    const onBack = () => {
      if (!pushed || ownEntryOnTop() === mark) return;
      popped = true;
      if (staysOnMoves && ownStepUnderWay()) return coverShown(mark, false);
      close.current();
    };
    window.addEventListener(ADDRESS_EVENT, onBack);
    return () => {
      closed = true;
      window.removeEventListener(ADDRESS_EVENT, onBack);
      // (after the steps under way: a move that took this entry away already leaves nothing to take)
      if (pushed && !popped) afterOwnSteps(() => ownEntryOnTop() === mark && stepBack());
      // (the page's own moves waiting behind it go once its entry is gone: lib/history-steps)
      coverShown(mark, false);
    };
  }, [open, staysOnMoves]);
}
