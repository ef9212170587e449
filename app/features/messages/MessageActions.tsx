import { useState, type MouseEvent } from "react";
import { lazyPart } from "~/ui/lazyPart";
import { createPortal } from "react-dom";
import { REACTIONS, type Reaction } from "~/conversation/messages/body";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { MenuButton } from "~/ui/MenuButton";
import { useNarrow } from "~/ui/useNarrow.client";

// Every emoji, searchable: its code and data load when first opened (not with the page).
const EmojiPickerDialog = lazyPart(() => import("~/features/reactions/EmojiPickerDialog").then((m) => m.default), { whenFailed: "toast" });

/** What a message's actions do (the list passes them to each message). */
export interface MessageActions {
  onReply: (m: DecryptedMessage) => void;
  onEdit: (m: DecryptedMessage, text: string) => Promise<boolean>;
  /** The message being edited was deleted (elsewhere): what the edit box held. */
  onEditLost: (m: DecryptedMessage, text: string) => void;
  onDelete: (m: DecryptedMessage) => void;
  onReact: (m: DecryptedMessage, emoji: Reaction) => void;
  onJumpTo: (id: string) => void;
  onCopyLink: (m: DecryptedMessage) => void;
  onPin: (m: DecryptedMessage, pinned: boolean) => void;
  onOpenThread: (rootId: string) => void;
}

type Props = Omit<MessageActions, "onEdit" | "onEditLost"> & { message: DecryptedMessage; sender: string; onStartEdit: () => void };

/**
 * A message's actions. Wide screens: Reply, React, More actions (thread, link, pin), Edit, Delete.
 * A phone: one "More actions" menu with every one of them by name, also opened by a long-press on the
 * message (ADR 0067).
 */
export function MessageActionsBar(props: Props) {
  const { message: m, sender } = props;
  const narrow = useNarrow();
  const [picking, setPicking] = useState(false);
  // (outside the actions bar, which lets the pointer through only while the message is hovered)
  const picker =
    picking &&
    createPortal(<EmojiPickerDialog onPick={(emoji) => props.onReact(m, emoji)} onClose={() => setPicking(false)} />, document.body);
  const moreEmoji = { label: "More emoji", onSelect: () => setPicking(true) };
  const more = [
    ...(m.thread ? [] : [{ label: "Reply in thread", onSelect: () => props.onOpenThread(m.id) }]),
    { label: "Copy link to message", onSelect: () => props.onCopyLink(m) },
    m.pinnedBy
      ? { label: "Unpin message", onSelect: () => props.onPin(m, false) }
      : { label: "Pin message", onSelect: () => props.onPin(m, true) },
  ];
  const edit = m.own && m.text ? [{ label: "Edit", onSelect: props.onStartEdit }] : [];
  const remove = m.own ? [{ label: "Delete", onSelect: () => props.onDelete(m) }] : [];
  const menu = (items: { label: string; onSelect: () => void }[]) => (
    <MenuButton
      label="More"
      buttonLabel="More actions"
      menuLabel={`More actions for the message from ${sender}`}
      buttonClassName="link-button message-more"
      items={items}
    />
  );
  if (narrow) {
    const reactions = REACTIONS.map((emoji) => ({ label: `React with ${emoji}`, onSelect: () => props.onReact(m, emoji) }));
    return (
      <div className="message-actions phone" role="group" aria-label={`Actions for the message from ${sender}`}>
        {menu([{ label: "Reply", onSelect: () => props.onReply(m) }, ...more, ...reactions, moreEmoji, ...edit, ...remove])}
        {picker}
      </div>
    );
  }
  return (
    <div className="message-actions" role="group" aria-label={`Actions for the message from ${sender}`}>
      <button type="button" className="link-button" onClick={() => props.onReply(m)}>
        Reply
      </button>
      <ReactMenu onPick={(emoji) => props.onReact(m, emoji)} onMore={moreEmoji.onSelect} />
      {picker}
      {menu(more)}
      {edit.map((item) => (
        <button key={item.label} type="button" className="link-button" onClick={item.onSelect}>
          {item.label}
        </button>
      ))}
      {remove.map((item) => (
        <button key={item.label} type="button" className="link-button" onClick={item.onSelect}>
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** A long-press on a phone (the browser's context menu event) opens the message's "More actions". */
export function openActionsMenu(event: MouseEvent<HTMLElement>) {
  const button = event.currentTarget.querySelector<HTMLButtonElement>(".message-actions.phone .message-more");
  if (!button || (event.target as HTMLElement).closest("a, img, textarea, input")) return;
  event.preventDefault();
  if (button.getAttribute("aria-expanded") !== "true") button.click();
}

/** The quick reactions, and "More emoji" for the picker. */
function ReactMenu({ onPick, onMore }: { onPick: (emoji: Reaction) => void; onMore: () => void }) {
  return (
    <MenuButton
      label="React"
      menuLabel="React with"
      buttonClassName="link-button"
      panelClassName="dropdown-panel reaction-menu"
      itemClassName="reaction-choice"
      horizontal
      items={[...REACTIONS.map((emoji) => ({ label: emoji, onSelect: () => onPick(emoji) })), { label: "More emoji", onSelect: onMore }]}
    />
  );
}
