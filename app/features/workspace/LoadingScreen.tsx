export function LoadingScreen({ message = "Loading..." }: { message?: string }) {
  return (
    <main className="loading" aria-busy="true">
      <div className="spinner" aria-hidden="true" />
      <p role="status">{message}</p>
    </main>
  );
}

/** crypto.subtle exists only in a secure context: say so plainly instead of failing later. */
export function InsecureContextScreen() {
  return (
    <main className="loading">
      <div className="auth-card">
        <h1>ChatCrypt needs a secure connection</h1>
        <p>
          Encryption in the browser only works over HTTPS (or on localhost). Please open this page through its https:// address, or ask your
          administrator to enable HTTPS.
        </p>
      </div>
    </main>
  );
}
