import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { formatTime } from "~/features/messages/text";
import type { SearchHit } from "~/features/search/engine";
import { highlightSegments } from "~/features/search/normalize";

interface Props {
  ready: boolean;
  query: string;
  onQuery: (query: string) => void;
  /** The box got focus: the index is wanted now. */
  onFocus: () => void;
  hits: SearchHit[];
  progress: { indexed: number; total: number };
  onOpen: (hit: SearchHit) => void;
  channelName: (id: string) => string;
}

const count = (n: number) => n.toLocaleString("en-US");
const dateFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
const formatDate = (created: string) => {
  const date = new Date(created.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? "" : `${dateFormat.format(date)} ${formatTime(created)}`;
};

/** Results grouped by channel, in the order of their best hit. */
function groups(hits: SearchHit[]) {
  const byChannel = new Map<string, SearchHit[]>();
  for (const hit of hits) byChannel.set(hit.channelId, [...(byChannel.get(hit.channelId) ?? []), hit]);
  return [...byChannel.entries()];
}

function Marked({ text, terms }: { text: string; terms: string[] }) {
  return (
    <>
      {highlightSegments(text, terms).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}

/** The header's search field (Ctrl/Cmd+K) and its results: sender, date, matched words highlighted; Enter or click opens. */
export function SearchPanel({ ready, query, onQuery, onFocus, hits, progress, onOpen, channelName }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const grouped = groups(hits);
  const ordered = grouped.flatMap(([, list]) => list);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => setActive(0), [query]);

  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    onOpen(hit);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((a) => (ordered.length ? (a + step + ordered.length) % ordered.length : 0));
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(ordered[active]);
    } else if (event.key === "Escape") {
      setOpen(false);
      input.current?.blur();
    }
  };
  const optionId = (hit: SearchHit) => `${listId}-${hit.id}`;

  return (
    <div className="search" data-search="">
      <input
        ref={input}
        type="search"
        className="search-input"
        aria-label="Search messages"
        placeholder="Search messages (Ctrl+K)"
        role="combobox"
        aria-expanded={open && query.trim() !== ""}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && ordered[active] ? optionId(ordered[active]) : undefined}
        autoComplete="off"
        value={query}
        onChange={(event) => {
          onQuery(event.target.value);
          setOpen(true);
        }}
        onFocus={() => {
          setOpen(true);
          onFocus();
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <div className="search-popup">
          <p className="search-progress" role="status">
            {ready
              ? `Indexed ${count(progress.indexed)} of ${count(Math.max(progress.total, progress.indexed))} messages`
              : "Opening the search index…"}
          </p>
          {query.trim() !== "" && (
            <div id={listId} role="listbox" aria-label="Search results" className="search-results">
              {ordered.length === 0 && <p className="search-empty">No messages found.</p>}
              {grouped.map(([channelId, list]) => (
                <div key={channelId} role="group" aria-label={`#${channelName(channelId)}`} className="search-group">
                  <div className="search-group-name" aria-hidden="true">
                    # {channelName(channelId)}
                  </div>
                  {list.map((hit) => (
                    <div
                      key={hit.id}
                      id={optionId(hit)}
                      role="option"
                      tabIndex={-1}
                      aria-selected={ordered[active]?.id === hit.id}
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
      )}
    </div>
  );
}
