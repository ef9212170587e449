/** How many messages of others arrived in a channel after the user's read position (`since`). */
export interface UnreadCount {
  channelId: string;
  count: number;
  since: string;
  /** When the newest of the counted messages was created (absent from an older server's answer). */
  newest?: string;
}
