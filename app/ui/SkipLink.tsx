import type { MouseEvent } from "react";
import { messageBox } from "~/ui/message-box";

/** The first tab stop of the workspace: jumps past the header, channels and messages to the message box. */
export function SkipLink() {
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const box = messageBox();
    if (!box) return;
    event.preventDefault();
    box.focus();
  }
  return (
    <a href="#message-composer" className="skip-link" onClick={skip}>
      Skip to message composer
    </a>
  );
}
