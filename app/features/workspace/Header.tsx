import { LockIcon, MenuIcon } from "~/ui/icons";
import type { ReactNode, RefObject } from "react";

/** Top bar: logo, then whatever the app puts beside it (world clock, menu). */
export function Header({
  children,
  onToggleSidebar,
  sidebarOpen,
  toggleRef,
  unread,
}: {
  children?: ReactNode;
  onToggleSidebar?: () => void;
  sidebarOpen?: boolean;
  toggleRef?: RefObject<HTMLButtonElement>;
  /** Unread messages and mentions in all conversations: on a phone, the channels' toggle shows them. */
  unread?: { count: number; mentions: number };
}) {
  const count = unread?.count ?? 0;
  const mentions = unread?.mentions ?? 0;
  const waiting = [mentions > 0 ? `${mentions} ${mentions === 1 ? "mention" : "mentions"}` : "", count > 0 ? `${count} unread` : ""]
    .filter(Boolean)
    .join(", ");
  return (
    <header className="app-header">
      {onToggleSidebar && (
        <button
          ref={toggleRef}
          type="button"
          className="icon-button sidebar-toggle"
          aria-label={waiting ? `Show channels: ${waiting}` : "Show channels"}
          aria-expanded={Boolean(sidebarOpen)}
          aria-controls="channel-sidebar"
          onClick={onToggleSidebar}
        >
          <MenuIcon />
          {count > 0 && (
            <span className={`toggle-badge${mentions > 0 ? " badge-mention" : ""}`} aria-hidden="true">
              {mentions > 0 ? `@${mentions}` : count}
            </span>
          )}
        </button>
      )}
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <LockIcon size={22} />
        </span>
        <span className="brand-name" aria-hidden="true">
          ChatCrypt
        </span>
        {/* The screen's one h1, also on a phone, where the brand's name gives its room to the search field. */}
        <h1 className="visually-hidden">ChatCrypt</h1>
      </div>
      <div className="header-extras">{children}</div>
    </header>
  );
}
