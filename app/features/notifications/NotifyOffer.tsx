import type { PermissionState } from "~/features/notifications/notify";
import { offerDone, useOffer } from "~/features/notifications/offer.client";

/**
 * The one-line bar that offers desktop notifications once the first direct message or mention has
 * arrived (ADR 0067). The browser's permission prompt opens only from its button; "Not now" dismisses
 * it for good in this browser.
 */
export function NotifyOffer({
  userId,
  permission,
  onTurnOn,
}: {
  userId: string;
  permission: PermissionState;
  onTurnOn: () => Promise<unknown>;
}) {
  const state = useOffer(userId);
  if (state !== "due" || permission !== "default") return null;
  return (
    <section className="notify-offer" aria-label="Notifications">
      <p>Get notified about direct messages and mentions of you.</p>
      <button
        type="button"
        className="btn btn-small btn-primary"
        onClick={() => {
          void onTurnOn().finally(() => offerDone(userId));
        }}
      >
        Turn on notifications
      </button>
      <button
        type="button"
        className="btn btn-small"
        aria-label="Not now: do not offer notifications again"
        onClick={() => offerDone(userId)}
      >
        Not now
      </button>
    </section>
  );
}
