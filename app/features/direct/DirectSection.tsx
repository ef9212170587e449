import type { ReactNode } from "react";
import type { Channel } from "~/features/channels/types";

interface Props {
  conversations: Channel[];
  selectedId: string | null;
  onSelect: (channel: Channel) => void;
  onNew: () => void;
  onLeave: (channel: Channel) => void;
  badges: (channel: Channel) => ReactNode;
}

/** The sidebar's "Direct messages" section: one-to-one and group conversations, and "New message". */
export function DirectSection(props: Props) {
  return (
    <section className="direct-section" aria-labelledby="direct-heading">
      <div className="sidebar-head">
        <h2 id="direct-heading">Direct messages</h2>
        <button type="button" className="btn btn-small" onClick={props.onNew}>
          New message
        </button>
      </div>
      {props.conversations.length === 0 ? (
        <p className="channel-empty">No direct messages yet</p>
      ) : (
        <ul className="channel-list">
          {props.conversations.map((channel) => {
            const title = channel.name;
            const active = channel.id === props.selectedId;
            return (
              <li key={channel.id} className={`channel-item${active ? " active" : ""}`}>
                <button
                  type="button"
                  className="channel-select"
                  aria-current={active ? "true" : undefined}
                  onClick={() => props.onSelect(channel)}
                >
                  @ {title}
                </button>
                {props.badges(channel)}
                <button
                  type="button"
                  className="icon-button channel-action"
                  aria-label={`Leave ${title}`}
                  title="Leave"
                  onClick={() => props.onLeave(channel)}
                >
                  Leave
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
