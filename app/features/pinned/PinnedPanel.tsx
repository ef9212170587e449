import type { SessionUser } from "~/lib/session-user";
import { BackButton } from "~/ui/BackButton";
import type { Channel } from "~/conversation/channels/types";
import { firstLine } from "~/features/messages/text";
import { usePinned } from "~/features/pinned/usePinned.client";
import { usePanelFocus } from "~/ui/usePanelFocus";

interface Props {
  user: SessionUser;
  channel: Channel;
  /** What the open history shows pinned (a change reads the list again). */
  pins: string;
  onJumpTo: (messageId: string) => void;
  onClose: () => void;
}

/** The conversation's pinned messages, newest pin first: who pinned each, and a way to it. */
export function PinnedPanel({ user, channel, pins, onJumpTo, onClose }: Props) {
  const panel = usePanelFocus<HTMLElement>(onClose);
  const { list, failed } = usePinned(user, channel, true, pins);
  return (
    <aside ref={panel} className="side-panel pinned-panel" aria-label="Pinned">
      <div className="side-panel-head">
        <BackButton onBack={onClose} />
        <h2>Pinned{list ? ` (${list.length})` : ""}</h2>
        <button type="button" className="icon-button panel-close" aria-label="Close pinned messages" onClick={onClose}>
          ×
        </button>
      </div>
      {failed && <p role="alert">The pinned messages could not be loaded.</p>}
      {!failed && list === null && <p role="status">Loading pinned messages...</p>}
      {list?.length === 0 && <p className="hint">Nothing is pinned here yet. Pin a message from its More menu.</p>}
      <ul className="pinned-list">
        {list?.map((p) => (
          <li key={p.message.id}>
            <p className="pinned-meta">
              <strong>{p.message.own ? "You" : p.message.senderUsername}</strong>, pinned by{" "}
              {p.pinnedBy === user.username ? "you" : p.pinnedBy}
            </p>
            <p className="pinned-text">{firstLine(p.message.text, 140) || "Attachment"}</p>
            <button type="button" className="btn btn-small" onClick={() => onJumpTo(p.message.id)}>
              Jump to message
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
