/** What travels between the web server and the page for calls (docs/decisions/0030-calls-livekit.md). */

/** Where and with what a device joins a conversation's call: the LiveKit address and a short access token. */
export interface CallTicket {
  url: string;
  token: string;
}

/** Whether calls are set up, and how many people are in the conversation's call now (0: none going on). */
export interface CallStatus {
  enabled: boolean;
  participants: number;
  /** The asking user is in the call, on another of their devices. */
  withViewer?: boolean;
}

/** How often a page in a call asks for a new token: well before the two-minute one it has runs out (ADR 0050). */
export const CALL_TICKET_RENEW_MS = 60_000;

/** A call that happened in the conversation: when it began and when the last person left (ISO dates). */
export interface CallRecordShape {
  id: string;
  started: string;
  ended: string;
  /**
   * A direct conversation's call nobody answered: who placed it (their username, "" when unknown), and
   * who declined its ring (ids and usernames, in the order they declined).
   */
  unanswered?: { caller: string; name: string; declined?: { id: string; name: string }[] };
}
