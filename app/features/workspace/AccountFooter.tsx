/** Sidebar footer: the signed-in @username; a click signs out (spec §2.4). */
export function AccountFooter({ username, onSignOut, busy }: { username: string; onSignOut: () => void; busy?: boolean }) {
  return (
    <div className="account-footer">
      <span className="account-label">Account</span>
      <button type="button" className="account-button" onClick={onSignOut} disabled={busy} title="Sign out">
        <span className="account-name">@{username}</span>
        <span className="account-action">Sign out</span>
      </button>
    </div>
  );
}
