import { useEffect, useRef } from "react";
import { ADDRESS_EVENT } from "~/features/address/address";
import { narrowNow } from "~/ui/useNarrow.client";

let marks = 0;

/**
 * On a phone, a panel that covers the conversation (Members, Pinned, News) closes with the system's
 * Back, as a thread does: shown, it adds a history entry at the same address, which Back takes away
 * (closing the panel); closed another way (its own Back button, Esc), it takes its entry back.
 */
export function useBackCloses(open: boolean, onClose: () => void) {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open || !narrowNow()) return;
    const mark = `panel-${++marks}`;
    // (the panel's entry was not opened from another address: backTo)
    const { chatcryptFrom: _from, ...state } = (window.history.state ?? {}) as Record<string, unknown>;
    window.history.pushState({ ...state, chatcryptPanel: mark }, "", window.location.href);
    let popped = false;
    // (Back between the chat's addresses comes as the address event: root.tsx)
    const onBack = () => {
      if (window.history.state?.chatcryptPanel === mark) return;
      popped = true;
      close.current();
    };
    window.addEventListener(ADDRESS_EVENT, onBack);
    return () => {
      window.removeEventListener(ADDRESS_EVENT, onBack);
      if (!popped && window.history.state?.chatcryptPanel === mark) window.history.back();
    };
  }, [open]);
}
