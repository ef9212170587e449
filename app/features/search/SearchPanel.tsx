import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import type { SearchHit } from "~/features/search/engine";
import { lazyPart } from "~/ui/lazyPart";
import { messageBox } from "~/ui/message-box";
import { useNarrow } from "~/ui/useNarrow.client";

// The results list (and its highlighting) loads when the field is first focused.
const Results = lazyPart(() => import("~/features/search/SearchResults").then((m) => m.SearchResults));

interface Props {
  ready: boolean;
  /** The index could not be opened (its code not fetched): tried again when the box is used. */
  failed: boolean;
  query: string;
  onQuery: (query: string) => void;
  /** The box got focus: the index is wanted now. */
  onFocus: () => void;
  hits: SearchHit[];
  progress: { indexed: number; total: number };
  onOpen: (hit: SearchHit) => void;
  channelTitle: (id: string) => string;
}

/** Results grouped by channel, in the order of their best hit. */
function groups(hits: SearchHit[]) {
  const byChannel = new Map<string, SearchHit[]>();
  for (const hit of hits) byChannel.set(hit.channelId, [...(byChannel.get(hit.channelId) ?? []), hit]);
  return [...byChannel.entries()];
}

/** The header's search field (Ctrl/Cmd+K) and its results: sender, date, matched words highlighted; Enter or click opens. */
export function SearchPanel({ ready, failed, query, onQuery, onFocus, hits, progress, onOpen, channelTitle }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  /** What had focus before the field (Esc gives it back). */
  const cameFrom = useRef<HTMLElement | null>(null);
  const listId = useId();
  const narrow = useNarrow();
  const grouped = groups(hits);
  const ordered = grouped.flatMap(([, list]) => list);

  // (from the frame the field is first drawn, its "Ctrl+K" works: an effect that runs after the paint
  // left a moment, long on a busy first load, when the keys did nothing)
  useLayoutEffect(() => {
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
      // back where the user was before the search (Ctrl+K from the composer), else to the composer
      const back = cameFrom.current?.isConnected ? cameFrom.current : messageBox();
      if (back) back.focus();
      else input.current?.blur();
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
        // (a phone's top bar has room for a word, and no Ctrl+K)
        placeholder={narrow ? "Search" : "Search messages (Ctrl+K)"}
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
        onPointerEnter={() => void Results.preload()}
        onFocus={(event) => {
          cameFrom.current = event.relatedTarget instanceof HTMLElement ? event.relatedTarget : null;
          void Results.preload();
          setOpen(true);
          onFocus();
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <Results
          ready={ready}
          failed={failed}
          query={query}
          progress={progress}
          grouped={grouped}
          active={ordered[active]?.id}
          listId={listId}
          optionId={optionId}
          channelTitle={channelTitle}
          choose={choose}
        />
      )}
    </div>
  );
}
