import { api } from "~/lib/api.client";
import type { Person } from "~/features/direct/types";
import type { DirectRequest, RequestAnswer } from "~/features/requests/types";

export const listRequests = async () => (await api<{ requests: DirectRequest[] }>("/api/direct/requests")).requests;

export const answerRequest = (channelId: string, answer: RequestAnswer) => api(`/api/direct/${channelId}/answer`, { answer });

export const listBlocked = async () => (await api<{ blocked: Person[] }>("/api/blocks")).blocked;

export const unblock = (userId: string) => api("/api/blocks", { userId });

const listeners = new Set<() => void>();

/** The live stream said the user's memberships or requests changed: the requests are read again. */
export function requestsChanged() {
  for (const listener of listeners) listener();
}

export function onRequestsChanged(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
