import { LockIcon, MenuIcon } from "~/ui/icons";
import type { ReactNode } from "react";

/** Top bar: logo, then whatever the app puts beside it (world clock, menu). */
export function Header({ children, onToggleSidebar }: { children?: ReactNode; onToggleSidebar?: () => void }) {
  return (
    <header className="app-header">
      {onToggleSidebar && (
        <button type="button" className="icon-button sidebar-toggle" aria-label="Show channels" onClick={onToggleSidebar}>
          <MenuIcon />
        </button>
      )}
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <LockIcon size={22} />
        </span>
        <h1 className="brand-name">ChatCrypt</h1>
      </div>
      <div className="header-extras">{children}</div>
    </header>
  );
}
