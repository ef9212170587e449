/** A thread with recent replies in one of the user's conversations: who wrote its root and each reply, and when (no content). */
export interface RecentThread {
  root: string;
  channelId: string;
  rootSender: string;
  replies: { sender: string; created: string }[];
}
