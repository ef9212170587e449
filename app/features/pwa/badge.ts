/** The tab's title with the number of unread messages in front when there are any: "(3) ChatCrypt". */
export function unreadTitle(unread: number): string {
  const n = Number.isFinite(unread) ? Math.max(0, Math.floor(unread)) : 0;
  return n > 0 ? `(${n}) ChatCrypt` : "ChatCrypt";
}
