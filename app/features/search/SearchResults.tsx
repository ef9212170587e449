import { formatTime } from "~/features/messages/text";
import type { SearchHit } from "~/features/search/engine";
import { highlightSegments } from "~/features/search/normalize";
import { PART_FAILED } from "~/ui/lazyPart";

interface Props {
  ready: boolean;
  failed: boolean;
  query: string;
  progress: { indexed: number; total: number };
  /** Hits by channel, in the order of their best hit. */
  grouped: [string, SearchHit[]][];
  /** The id of the hit the arrow keys are on. */
  active: string | undefined;
  listId: string;
  optionId: (hit: SearchHit) => string;
  channelTitle: (id: string) => string;
  choose: (hit: SearchHit) => void;
}

const count = (n: number) => n.toLocaleString("en-US");
const dateFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
const formatDate = (created: string) => {
  const date = new Date(created.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? "" : `${dateFormat.format(date)} ${formatTime(created)}`;
};

function Marked({ text, terms }: { text: string; terms: string[] }) {
  return (
    <>
      {highlightSegments(text, terms).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}

/** The search field's popup (SearchPanel.tsx): the index's progress and the results, sender, date, matched words highlighted. */
export function SearchResults({ ready, failed, query, progress, grouped, active, listId, optionId, channelTitle, choose }: Props) {
  return (
    <div className="search-popup">
      <p className="search-progress" role="status">
        {ready
          ? `Indexed ${count(progress.indexed)} of ${count(Math.max(progress.total, progress.indexed))} messages`
          : failed
            ? PART_FAILED
            : "Opening the search index…"}
      </p>
      {query.trim() !== "" && (
        <div id={listId} role="listbox" aria-label="Search results" className="search-results">
          {ready && grouped.length === 0 && <p className="search-empty">No messages found.</p>}
          {grouped.map(([channelId, list]) => (
            <div key={channelId} role="group" aria-label={channelTitle(channelId)} className="search-group">
              <div className="search-group-name" aria-hidden="true">
                {channelTitle(channelId)}
              </div>
              {list.map((hit) => (
                <div
                  key={hit.id}
                  id={optionId(hit)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={active === hit.id}
                  className="search-hit"
                  // mousedown, not click: the field's blur would close the list first
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(hit);
                  }}
                >
                  <div className="search-hit-meta">
                    <span className="search-hit-sender">{hit.sender}</span>
                    <time dateTime={hit.created}>{formatDate(hit.created)}</time>
                  </div>
                  <div className="search-hit-text">
                    <Marked text={[hit.text, hit.extra].filter(Boolean).join(" · ")} terms={hit.terms} />
                  </div>
                </div>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
