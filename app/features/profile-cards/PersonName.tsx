import { useCard } from "~/features/profile-cards/cards.client";
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
