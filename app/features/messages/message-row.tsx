import { Fragment } from "react";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { MessageItem, type ItemProps } from "~/features/messages/MessageItem";
import { continuesGroup, dayLabel, startsDay } from "~/features/messages/text";
import { UnreadableRoot } from "~/features/threads/UnreadableRoot";

type RowProps = Omit<
  ItemProps,
  "message" | "grouped" | "highlighted" | "quoted" | "translation" | "showingOriginal" | "onToggleOriginal"
> & {
  messages: DecryptedMessage[];
  highlighted: ReadonlySet<string>;
  byId: Map<string, DecryptedMessage>;
  events: ReturnType<typeof placeEvents<{ id: string; text: string; created: string }>>;
  firstUnread?: string;
  translationOf?: (m: DecryptedMessage) => string | undefined;
  showingOriginal?: ReadonlySet<string>;
  onToggleOriginal?: (id: string) => void;
};

/** Message `i` of the list with what goes above it: member events, a day separator, the "New messages" divider. */
export function messageRow(props: RowProps, i: number, place?: { at: number; of: number }) {
  const { messages, highlighted, byId, events, firstUnread } = props;
  const m = messages[i];
  const previous = messages[i - 1];
  const newDay = startsDay(previous, m);
  const unread = m.id === firstUnread;
  return (
    <Fragment key={m.id}>
      {events.before.get(m.id)?.map(eventLine)}
      {newDay && (
        <div className="day-separator" role="separator" aria-label={dayLabel(m.created)}>
          <span>{dayLabel(m.created)}</span>
        </div>
      )}
      {unread && (
        <div className="unread-divider" role="separator" aria-label="New messages">
          <span>New messages</span>
        </div>
      )}
      {m.unreadable ? (
        <UnreadableRoot message={m} onOpenThread={props.onOpenThread} />
      ) : (
        <MessageItem
          {...props}
          message={m}
          place={place}
          grouped={!newDay && !unread && continuesGroup(previous, m)}
          highlighted={highlighted.has(m.id)}
          quoted={m.replyTo ? (byId.get(m.replyTo) ?? null) : undefined}
          translation={m.own ? undefined : props.translationOf?.(m)}
          showingOriginal={props.showingOriginal?.has(m.id) ?? false}
          onToggleOriginal={props.onToggleOriginal ?? (() => undefined)}
        />
      )}
    </Fragment>
  );
}

export function eventLine(event: { id: string; text: string }) {
  return (
    <p key={event.id} className="chat-event">
      {event.text}
    </p>
  );
}

/** Each event goes before the first message newer than it; the rest after the last message. */
export function placeEvents<E extends { created: string }>(messages: { id: string; created: string }[], events: E[]) {
  const before = new Map<string, E[]>();
  const after: E[] = [];
  const time = (value: string) => Date.parse(value.replace(" ", "T"));
  for (const event of events) {
    const at = time(event.created);
    const next = messages.find((m) => time(m.created) > at);
    if (!next) after.push(event);
    else before.set(next.id, [...(before.get(next.id) ?? []), event]);
  }
  return { before, after };
}
