import { LeaveIcon, TrashIcon } from "~/ui/icons";
import type { ReactNode } from "react";
import type { Channel } from "~/conversation/channels/types";
import { ThreadsSection } from "~/features/threads/ThreadsSection";
import { requestThreadOpen } from "~/features/threads/open.client";
import { MutedMark } from "~/features/notify-rules/MutedMark";
import { openIntent } from "~/features/messages/latest-prefetch.client";

interface Props {
  open: boolean;
  channels: Channel[] | null;
  selectedId: string | null;
  userId: string;
  onSelect: (channel: Channel) => void;
  /** None when the user may not create channels (a guest, or "Admins only"). */
  onCreate?: () => void;
  /** Join by ID and password: none for a guest, who joins through an invite only (ADR 57). */
  onJoin?: () => void;
  onDelete: (channel: Channel) => void;
  onLeave: (channel: Channel) => void;
  onDeleteAll: () => void;
  footer: ReactNode;
  /** What follows the channel list (the direct messages). */
  after?: ReactNode;
  /** Per channel: messages of others since the user last read it, and how many of them mention the user. */
  unread?: ReadonlyMap<string, { count: number; mentions: number }>;
}

/** Channel sidebar (spec §2.4): list, Create and Join, per-channel Delete or Leave, delete-all. */
export function Sidebar(props: Props) {
  const channels = props.channels?.filter((c) => !c.direct) ?? null;
  return (
    <nav id="channel-sidebar" className={`sidebar${props.open ? " open" : ""}`} aria-label="Channels">
      <div className="sidebar-head">
        <h2>Channels</h2>
        {props.onCreate && (
          <button type="button" className="btn btn-small" onClick={props.onCreate}>
            Create
          </button>
        )}
        {props.onJoin && (
          <button type="button" className="btn btn-small" onClick={props.onJoin}>
            Join
          </button>
        )}
        {channels && channels.length > 0 && (
          <button
            type="button"
            className="icon-button"
            aria-label="Delete all channels"
            title="Delete all channels"
            onClick={props.onDeleteAll}
          >
            <TrashIcon />
          </button>
        )}
      </div>
      {channels === null ? (
        <p className="channel-empty">Loading channels...</p>
      ) : channels.length === 0 ? (
        <p className="channel-empty">No channels yet</p>
      ) : (
        <ul className="channel-list">
          {channels.map((channel) => {
            const creator = channel.createdBy === props.userId;
            return (
              <ConversationItem
                key={channel.id}
                conversationId={channel.id}
                label={`# ${channel.name}`}
                active={channel.id === props.selectedId}
                onSelect={() => props.onSelect(channel)}
                badges={<UnreadBadges counts={props.unread?.get(channel.id)} />}
                action={creator ? "Delete" : "Leave"}
                actionLabel={`${creator ? "Delete" : "Leave"} ${channel.name}`}
                onAction={() => (creator ? props.onDelete(channel) : props.onLeave(channel))}
              />
            );
          })}
        </ul>
      )}
      {props.after}
      <ThreadsSection
        channels={props.channels}
        userId={props.userId}
        onOpen={(channel, root) => {
          requestThreadOpen(channel.id, root);
          props.onSelect(channel);
        }}
      />
      {props.footer}
    </nav>
  );
}

/** One channel or conversation in the sidebar: open it, its muted mark, its unread badges, and its one action (Delete or Leave). */
export function ConversationItem(props: {
  conversationId: string;
  label: ReactNode;
  active: boolean;
  onSelect: () => void;
  badges: ReactNode;
  /** Delete shows the trash, Leave a door: one icon never means both. */
  action: "Delete" | "Leave";
  actionLabel: string;
  onAction: () => void;
}) {
  const intent = openIntent(props.conversationId, props.active);
  return (
    <li className={`channel-item${props.active ? " active" : ""}`}>
      <button
        type="button"
        className="channel-select"
        aria-current={props.active ? "true" : undefined}
        onClick={props.onSelect}
        {...intent}
      >
        {props.label}
      </button>
      <MutedMark conversationId={props.conversationId} />
      {props.badges}
      <button
        type="button"
        className="icon-button channel-action"
        aria-label={props.actionLabel}
        title={props.action}
        onClick={props.onAction}
      >
        {props.action === "Delete" ? <TrashIcon /> : <LeaveIcon />}
      </button>
    </li>
  );
}

export function UnreadBadges({ counts }: { counts?: { count: number; mentions: number } }) {
  if (!counts || counts.count === 0) return null;
  return (
    <span className="unread-badges">
      {counts.mentions > 0 && (
        <span
          className="badge badge-mention"
          role="img"
          aria-label={`${counts.mentions} ${counts.mentions === 1 ? "mention" : "mentions"}`}
        >
          @{counts.mentions}
        </span>
      )}
      <span className="badge" role="img" aria-label={`${counts.count} unread`}>
        {counts.count}
      </span>
    </span>
  );
}
