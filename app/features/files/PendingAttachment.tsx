import { useEffect, useState } from "react";
import { knownDeactivated } from "~/conversation/senders/profiles.client";

/**
 * How long after its message a file may still arrive: the web server takes a request for at most five
 * minutes (`requestTimeout` in server.mjs), so an upload still going after that has failed; one more
 * minute covers the encryption before it. The sender's "Retry" may still bring it later: then it shows.
 */
export const FILE_ARRIVAL_MS = 6 * 60_000;

/** Whether a file posted at `created` (the server's time) may still be on its way at `now`. */
export function mayStillArrive(created: string, now: number): boolean {
  const posted = Date.parse(created);
  return Number.isNaN(posted) || now - posted < FILE_ARRIVAL_MS;
}

/**
 * A message's file not here yet: "Receiving attachment..." until it cannot be on its way any more, or
 * at once once its sender is known to be deactivated (their upload is refused with their session).
 */
export function PendingAttachment({ created, senderId }: { created: string; senderId: string }) {
  const [waiting, setWaiting] = useState(() => mayStillArrive(created, Date.now()));
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setWaiting(false), Date.parse(created) + FILE_ARRIVAL_MS - Date.now());
    return () => clearTimeout(timer);
  }, [created, waiting]);
  if (knownDeactivated(senderId))
    return <p className="attachment-loading">The file did not arrive: its sender was deactivated before it was sent.</p>;
  return waiting ? (
    <p className="attachment-loading">Receiving attachment...</p>
  ) : (
    <p className="attachment-loading">The file did not arrive: its sender did not finish sending it.</p>
  );
}
