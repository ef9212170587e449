/** The news feed sidebar's data, as GET /api/chat/news answers it (pb_hooks/news_feed.pb.js). */

export interface FeedItem {
  /** The item's guid or id, else its link, else its title. */
  id: string;
  /** Plain text (tags removed, entities decoded). */
  title: string;
  /** Plain text, at most 1,000 characters. */
  description: string;
  /** As written in the feed (RFC 822 for RSS, ISO 8601 for Atom); "" when absent. */
  pubDate: string;
  /** An http(s) address, or "". */
  link: string;
}

export interface FeedResponse {
  /** False when the server has no NEWS_FEED_URL: the sidebar says so instead of loading. */
  configured: boolean;
  items: FeedItem[];
  /** Set when the feed could not be fetched or read; items is then empty. */
  error?: string;
}
