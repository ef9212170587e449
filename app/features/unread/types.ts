/** How many messages of others arrived in a channel after the user's read position (`since`). */
export interface UnreadCount {
  channelId: string;
  count: number;
  since: string;
}
