import { LockIcon, MenuIcon } from "~/ui/icons";
import type { ReactNode, RefObject } from "react";

/** Top bar: logo, then whatever the app puts beside it (world clock, menu). */
export function Header({
  children,
  onToggleSidebar,
  sidebarOpen,
  toggleRef,
}: {
  children?: ReactNode;
  onToggleSidebar?: () => void;
  sidebarOpen?: boolean;
  toggleRef?: RefObject<HTMLButtonElement>;
}) {
  return (
    <header className="app-header">
      {onToggleSidebar && (
        <button
          ref={toggleRef}
          type="button"
          className="icon-button sidebar-toggle"
          aria-label="Show channels"
          aria-expanded={Boolean(sidebarOpen)}
          aria-controls="channel-sidebar"
          onClick={onToggleSidebar}
        >
          <MenuIcon />
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
