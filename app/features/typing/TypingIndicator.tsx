import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { pinSnapshot, subscribePins } from "~/conversation/senders/pin-state.client";
import { genuineTyping, subscribeTyping, typingText } from "~/features/typing/typing.client";
import { on } from "~/lib/events";

const SHOWN_MS = 5_000;

/**
 * Who is typing in the open conversation (a polite live region; each name goes a few seconds after their
 * last keystroke). Nobody whose messages are held back here for new keys not accepted yet (ADR 0051):
 * what they type would not show.
 */
export function TypingIndicator({ user, channel, nameOf }: { user: SessionUser; channel: Channel; nameOf: (userId: string) => string }) {
  const [until, setUntil] = useState<ReadonlyMap<string, number>>(new Map());
  // The conversation's record is replaced whenever the channel list reloads: only another conversation
  // starts the indicator afresh.
  const current = useRef(channel);
  current.current = channel;
  useEffect(() => {
    setUntil(new Map());
    const stop = subscribeTyping((event) => {
      void genuineTyping(user, current.current, event).then((genuine) => {
        if (genuine) setUntil((shown) => new Map(shown).set(event.userId, Date.now() + SHOWN_MS));
      });
    });
    // (their message arrived: what they typed is there)
    const sent = on("typing:ended", ({ channelId, userId }) => {
      if (channelId === current.current.id)
        setUntil((shown) => (shown.has(userId) ? new Map([...shown].filter(([id]) => id !== userId)) : shown));
    });
    return () => {
      stop();
      sent();
    };
  }, [user, channel.id]);
  const someone = until.size > 0;
  useEffect(() => {
    if (!someone) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setUntil((current) => ([...current.values()].some((t) => t <= now) ? new Map([...current].filter(([, t]) => t > now)) : current));
    }, 500);
    return () => clearInterval(timer);
  }, [someone]);
  const { changed } = useSyncExternalStore(subscribePins, pinSnapshot, pinSnapshot);
  const heldBack = (userId: string) => changed.get(userId)?.channels.has(channel.id) === true;
  const names = [...until.keys()]
    .filter((userId) => !heldBack(userId))
    .map(nameOf)
    .filter(Boolean);
  return (
    <p className="typing-indicator" role="status" aria-live="polite">
      {typingText(names)}
    </p>
  );
}
