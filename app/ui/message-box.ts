import { useEffect, type RefObject } from "react";

/** The open conversation's message box, where focus goes when what held it is gone (null when none is shown). */
export const messageBox = () => document.querySelector<HTMLTextAreaElement>(".composer textarea");

/**
 * A box that opens on a draft (a conversation or thread come back to) has its caret at the draft's end,
 * where focus from the keyboard finds it: what is typed next follows the draft. `key`: what the box is
 * the draft of.
 */
export function useCaretAtEnd(box: RefObject<HTMLTextAreaElement | null>, key: string) {
  useEffect(() => {
    const element = box.current;
    element?.setSelectionRange(element.value.length, element.value.length);
  }, [box, key]);
}

/**
 * A message box's Send button that leaves the focus in the box when pressed (a tap or a click): on a
 * phone the keyboard stays up between messages. The click still sends.
 */
export const keepsBoxFocus = { onPointerDown: (event: { preventDefault: () => void }) => event.preventDefault() };
