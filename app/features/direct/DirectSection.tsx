import { lazy, Suspense, type ReactNode } from "react";
import { ConversationItem } from "~/features/channels/Sidebar";
import type { Channel } from "~/features/channels/types";

// Requests load right after the first paint (they are not part of the first load).
const Requests = lazy(() => import("~/features/requests/Requests"));

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
  return (
    <section className="direct-section" aria-labelledby="direct-heading">
      <div className="sidebar-head">
        <h2 id="direct-heading">Direct messages</h2>
        <button type="button" className="btn btn-small" onClick={props.onNew}>
          New message
        </button>
      </div>
      <Suspense fallback={null}>
        <Requests onAccepted={props.onAccepted} />
      </Suspense>
      {props.conversations.length === 0 ? (
        <p className="channel-empty">No direct messages yet</p>
      ) : (
        <ul className="channel-list">
          {props.conversations.map((channel) => (
            <ConversationItem
              key={channel.id}
              conversationId={channel.id}
              label={`@ ${channel.name}`}
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
