/** The main area for an address that names a conversation this person cannot read (ADR 0061). */
export function NotAvailable() {
  return (
    <section className="chat-empty" aria-labelledby="not-available-title">
      <h2 id="not-available-title">This conversation is not available to you.</h2>
      <p className="chat-empty-next">Pick a conversation from the list, or join a channel with its ID and password.</p>
    </section>
  );
}
