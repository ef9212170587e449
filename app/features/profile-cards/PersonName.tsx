import { cardViewer, idOfUsername, useCard } from "~/features/profile-cards/cards.client";
import type { ProfileCard } from "~/features/profile-cards/types";

/** A small round photo with its alt text; nothing for a person without one (the current look stays). */
export function Avatar({ card, username }: { card: ProfileCard | null; username: string }) {
  if (!card?.photo) return null;
  return <img className="avatar" src={card.photo} alt={`Avatar of ${card.name ?? username} (@${username})`} width={24} height={24} />;
}

/**
 * A person as lists and sender lines name them: with a card, the photo, the display name and
 * "@username" beside it (people are found by username); without one, exactly `fallback` as before.
 */
export function PersonName({ userId, username, fallback }: { userId: string | null | undefined; username: string; fallback?: string }) {
  const card = useCard(userId);
  if (!card) return <>{fallback ?? username}</>;
  return (
    <span className="person">
      <Avatar card={card} username={username} />
      {card.name ? (
        <>
          <span className="person-display">{card.name}</span> <span className="person-username">@{username}</span>
        </>
      ) : (
        (fallback ?? username)
      )}
    </span>
  );
}

/** A mention suggestion: "@username", with the display name after it when the person has one. */
export function MentionName({ username }: { username: string }) {
  const card = useCard(idOfUsername(username));
  return (
    <>
      <Avatar card={card} username={username} />@{username}
      {card?.name && <span className="person-username"> {card.name}</span>}
    </>
  );
}

/**
 * A one-to-one conversation in the sidebar: "@ username" as before, or, when the other person has a
 * card, their photo, display name and "@username".
 */
export function DirectLabel({ name, participants }: { name: string; participants?: readonly { id: string; username: string }[] }) {
  const me = cardViewer();
  const other = participants?.length === 2 ? participants.find((p) => p.id !== me) : undefined;
  const card = useCard(other?.id);
  if (!other || !card?.name) return <>{`@ ${name}`}</>;
  return (
    <span className="person">
      <Avatar card={card} username={other.username} />
      <span className="person-display">{card.name}</span> <span className="person-username">@{other.username}</span>
    </span>
  );
}
