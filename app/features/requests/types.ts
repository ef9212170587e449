import type { Person } from "~/features/direct/types";

/** A request to join a direct conversation (docs/decisions/0052-direct-messages-with-consent.md): who asked, nothing else. */
export interface DirectRequest {
  channelId: string;
  requester: Person;
}

export type RequestAnswer = "accept" | "decline" | "block";

/** What the sidebar says of a request, word for word. */
export const requestText = (requester: string) => `${requester} wants to message you`;
