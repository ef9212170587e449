import { afterConversationShown } from "~/features/messages/conversation-shown.client";
import { setCardViewer } from "~/features/profile-cards/cards.client";
import { shareWithEveryone } from "~/features/profile-cards/own.client";

/**
 * Display names and photos for a signed-in page (null: signed out). Once the first conversation is
 * shown, the viewer's card is shared with people who joined one of their conversations meanwhile (ADR 0075).
 */
export function startProfileCards(userId: string | null) {
  setCardViewer(userId);
  if (userId) void afterConversationShown().then(() => shareWithEveryone());
}
