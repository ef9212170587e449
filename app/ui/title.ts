/**
 * The tab's title, made of two parts set apart: the number of unread messages (the installed app's
 * badge, features/pwa) and the open conversation's name (the address, features/address). Each used to
 * write the whole title, and the last one written won: "(2) ChatCrypt" lost the conversation's name,
 * "Alpha · ChatCrypt" the count.
 */
const parts: { unread: number; place: string | null } = { unread: 0, place: null };

/** "(3) general · ChatCrypt": the count when there are unread messages, the name when a conversation is open. */
export function pageTitle(unread: number, place: string | null): string {
  const n = Number.isFinite(unread) ? Math.max(0, Math.floor(unread)) : 0;
  return `${n > 0 ? `(${n}) ` : ""}${place ? `${place} · ` : ""}ChatCrypt`;
}

const write = () => {
  if (typeof document !== "undefined") document.title = pageTitle(parts.unread, parts.place);
};

/** The number of unread messages the title shows (0: none). */
export function titleUnread(unread: number) {
  parts.unread = unread;
  write();
}

/** The open conversation's name in the title (null: none open). */
export function titlePlace(place: string | null) {
  parts.place = place;
  write();
}
