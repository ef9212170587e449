import { RequestsList } from "~/features/requests/RequestsList";
import { useRequests } from "~/features/requests/useRequests.client";

/**
 * The sidebar's requests with their answers (loaded right after the first paint, not part of the first
 * load; the live stream's changes reach it through changes.client.ts).
 */
export default function Requests({ onAccepted }: { onAccepted: (channelId: string) => Promise<unknown> }) {
  const requests = useRequests(onAccepted);
  return (
    <RequestsList
      requests={requests.requests}
      busy={requests.busy}
      error={requests.error}
      onAnswer={(r, a) => void requests.answer(r, a)}
    />
  );
}
