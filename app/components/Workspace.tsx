import { useState } from "react";
import { AccountFooter } from "~/components/shell/AccountFooter";
import { EmptyChat } from "~/components/shell/EmptyChat";
import { Header } from "~/components/shell/Header";
import type { SessionUser } from "~/session-user";

/** The signed-in screen (spec §2.3): header, channel sidebar, chat pane. */
export function Workspace({ user, onSignOut, signingOut }: { user: SessionUser; onSignOut: () => void; signingOut: boolean }) {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  return (
    <div className="workspace">
      <Header onToggleSidebar={() => setSidebarOpen((o) => !o)} />
      <div className="workspace-body">
        <nav className={`sidebar${sidebarOpen ? " open" : ""}`} aria-label="Channels">
          <div className="sidebar-head">
            <h2>Channels</h2>
          </div>
          <div className="channel-list" />
          <AccountFooter username={user.username} onSignOut={onSignOut} busy={signingOut} />
        </nav>
        <main className="chat-pane">
          <EmptyChat />
        </main>
      </div>
    </div>
  );
}
