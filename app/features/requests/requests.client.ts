import { ApiError, api } from "~/lib/api.client";
import type { Person } from "~/features/direct/types";
import type { DirectRequest, RequestAnswer } from "~/features/requests/types";

export const listRequests = async () => (await api<{ requests: DirectRequest[] }>("/api/direct/requests")).requests;

export const answerRequest = (channelId: string, answer: RequestAnswer) => api(`/api/direct/${channelId}/answer`, { answer });

export const listBlocked = async () => (await api<{ blocked: Person[] }>("/api/blocks")).blocked;

/** Unblocks someone; someone not blocked any more (unblocked on another device) counts as done. */
export const unblock = (userId: string) =>
  api("/api/blocks", { userId }).catch((error: unknown) => {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  });
