import { useEffect, useState, type ReactNode } from "react";
import { lazyPart } from "~/ui/lazyPart";
import { ConversationItem } from "~/features/channels/Sidebar";
import type { Channel } from "~/conversation/channels/types";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";
import { DirectLabel } from "~/features/profile-cards/PersonName";

// Requests load once the first conversation is shown (they are not part of the first load).
const Requests = lazyPart(() => import("~/features/requests/Requests").then((m) => m.default));
const REQUESTS_AFTER_MS = 500;

interface Props {
  conversations: Channel[];
  selectedId: string | null;
  onSelect: (channel: Channel) => void;
  onNew: () => void;
  onLeave: (channel: Channel) => void;
  badges: (channel: Channel) => ReactNode;
  /** A request accepted here: its conversation is opened. */
  onAccepted: (channelId: string) => Promise<unknown>;
}

/** The sidebar's "Direct messages" section: requests, one-to-one and group conversations, and "New message". */
export function DirectSection(props: Props) {
  const [later, setLater] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    void afterConversationShown().then(() => (timer = setTimeout(() => setLater(true), REQUESTS_AFTER_MS)));
    return () => clearTimeout(timer);
  }, []);
  return (
    <section className="direct-section" aria-labelledby="direct-heading">
      <div className="sidebar-head">
        <h2 id="direct-heading">Direct messages</h2>
        <button type="button" className="btn btn-small" onClick={props.onNew}>
          New message
        </button>
      </div>
      {later && <Requests onAccepted={props.onAccepted} />}
      {props.conversations.length === 0 ? (
        <p className="channel-empty">No direct messages yet</p>
      ) : (
        <ul className="channel-list">
          {props.conversations.map((channel) => (
            <ConversationItem
              key={channel.id}
              conversationId={channel.id}
              label={channel.oneToOne ? <DirectLabel name={channel.name} participants={channel.participants} /> : `@ ${channel.name}`}
              active={channel.id === props.selectedId}
              onSelect={() => props.onSelect(channel)}
              badges={props.badges(channel)}
              action="Leave"
              actionLabel={`Leave ${channel.name}`}
              onAction={() => props.onLeave(channel)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
