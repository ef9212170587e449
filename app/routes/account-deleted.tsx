import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Account deleted - ChatCrypt" }];

/** Where the page goes after Menu > Account > Delete account (ADR 29). */
export default function AccountDeleted() {
  return (
    <main className="loading">
      <div className="auth-card">
        <h1>Account deleted</h1>
        <p role="status">
          Your ChatCrypt account has been deleted, and this browser no longer holds its keys. Your messages stay in their conversations,
          shown as from &quot;Deleted user&quot;.
        </p>
        <a className="btn btn-primary" href="/">
          Open ChatCrypt
        </a>
      </div>
    </main>
  );
}
