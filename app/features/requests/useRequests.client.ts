import { useCallback, useEffect, useState } from "react";
import { refusalOf } from "~/lib/api.client";
import { answerRequest, listRequests } from "~/features/requests/requests.client";
import { onRequestsChanged } from "~/features/requests/changes.client";
import type { DirectRequest, RequestAnswer } from "~/features/requests/types";

/**
 * The user's requests to join direct conversations: read on load and whenever the live stream says
 * their memberships changed; answered one at a time. An accepted one is opened (`accepted`).
 */
export function useRequests(accepted: (channelId: string) => Promise<unknown>) {
  const [requests, setRequests] = useState<DirectRequest[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(
    () => listRequests().then(setRequests, (failure: unknown) => console.warn("The requests could not be read", failure)),
    [],
  );
  useEffect(() => {
    void reload();
    return onRequestsChanged(() => void reload());
  }, [reload]);

  const answer = useCallback(
    async (request: DirectRequest, what: RequestAnswer) => {
      setBusy(request.channelId);
      setError(null);
      try {
        await answerRequest(request.channelId, what);
        setRequests((current) =>
          current.filter((r) => r.channelId !== request.channelId && (what !== "block" || r.requester.id !== request.requester.id)),
        );
        if (what === "accept") await accepted(request.channelId);
      } catch (failure) {
        setError(refusalOf(failure, "The request could not be answered. Please try again."));
        await reload();
      } finally {
        setBusy(null);
      }
    },
    [accepted, reload],
  );

  return { requests, busy, error, answer };
}
