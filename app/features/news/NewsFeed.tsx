import { usePanelFocus } from "~/ui/usePanelFocus";
import type { FeedItem } from "~/features/news/feed";

interface Props {
  items: FeedItem[];
  configured: boolean;
  loading: boolean;
  failed: boolean;
  highlighted: ReadonlySet<string>;
  onClose: () => void;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const formatDate = (value: string) => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
};

/** The collapsible News Feed sidebar (400 px): title, description with tags stripped, and date of each item. */
export function NewsFeed({ items, configured, loading, failed, highlighted, onClose }: Props) {
  const panel = usePanelFocus<HTMLElement>(onClose);
  return (
    <aside ref={panel} className="news-feed" aria-label="News Feed">
      <div className="news-head">
        <h2>News Feed</h2>
        <button type="button" className="icon-button" aria-label="Close news feed" onClick={onClose}>
          ×
        </button>
      </div>
      {!configured ? (
        <p className="channel-empty">There is no news feed on this server.</p>
      ) : items.length === 0 ? (
        <p className="channel-empty">{loading ? "Loading news..." : failed ? "News is unavailable right now." : "No news yet."}</p>
      ) : (
        <ul className="news-list">
          {items.map((item) => (
            <li key={item.id} className={`news-item${highlighted.has(item.id) ? " highlight" : ""}`}>
              <h3>
                {item.link ? (
                  <a href={item.link} target="_blank" rel="noopener noreferrer">
                    {item.title}
                  </a>
                ) : (
                  item.title
                )}
              </h3>
              {item.description && <p>{item.description}</p>}
              {item.pubDate && <time dateTime={item.pubDate}>{formatDate(item.pubDate)}</time>}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
