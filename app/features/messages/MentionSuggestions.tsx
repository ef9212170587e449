import { useState, type KeyboardEvent } from "react";
import { MentionName } from "~/features/profile-cards/PersonName";

/** The `@name` being typed just before the caret, if any. */
export function mentionQuery(text: string, caret: number): { start: number; prefix: string } | null {
  const match = /(^|[^\w@])@([A-Za-z0-9_]{0,32})$/.exec(text.slice(0, caret));
  return match ? { start: caret - match[2].length - 1, prefix: match[2] } : null;
}

/**
 * Suggestions of channel members while `@` is typed in the composer: arrow keys choose, Enter or Tab
 * inserts, Esc closes. `onKeyDown` answers true when it used the key.
 */
export function useMentionSuggestions(
  members: readonly string[],
  text: string,
  caret: number,
  insert: (start: number, username: string) => void,
) {
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const query = mentionQuery(text, caret);
  const key = query ? `${query.start}:${query.prefix}` : null;
  const matches =
    query && key !== dismissed ? members.filter((m) => m.toLowerCase().startsWith(query.prefix.toLowerCase())).slice(0, 6) : [];
  const chosen = Math.min(active, Math.max(matches.length - 1, 0));

  function pick(username: string) {
    if (!query) return;
    insert(query.start, username);
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (matches.length === 0) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      setActive((chosen + (event.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
    } else if (event.key === "Enter" || event.key === "Tab") {
      pick(matches[chosen]);
    } else if (event.key === "Escape") {
      event.stopPropagation();
      setDismissed(key);
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  }

  const list =
    matches.length > 0 ? (
      <ul className="mention-suggestions" role="listbox" aria-label="Mention a member">
        {matches.map((username, i) => (
          <li key={username} role="option" aria-selected={i === chosen}>
            <button type="button" tabIndex={-1} onMouseDown={(e) => e.preventDefault()} onClick={() => pick(username)}>
              <MentionName username={username} />
            </button>
          </li>
        ))}
      </ul>
    ) : null;

  return { list, onKeyDown };
}
