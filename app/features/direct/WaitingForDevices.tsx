import { useSyncExternalStore } from "react";
import { noneWaiting, subscribeWaiting, waitingFor } from "~/conversation/mls/waiting";
import type { Person } from "~/features/direct/types";

/** While a new conversation waits for a participant's first device (ADR 0047): "Waiting for NAME's device...". */
export function WaitingForDevices({ people }: { people: readonly Person[] }) {
  const ids = useSyncExternalStore(subscribeWaiting, waitingFor, noneWaiting);
  const names = ids.map((id) => people.find((p) => p.id === id)?.username ?? "someone");
  if (names.length === 0) return null;
  return (
    <p className="hint" role="status">
      {names.map((name) => `Waiting for ${name}'s device...`).join(" ")}
    </p>
  );
}
