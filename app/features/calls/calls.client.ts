/** The page's side of the calls routes (app/routes/api.calls.*). */
import { api } from "~/lib/api.client";
import type { CallRecordShape, CallStatus, CallTicket } from "./types";

/** Whether a call is going on in the conversation (members only). */
export const callStatus = (conversationId: string) => api<CallStatus>(`/api/calls/${conversationId}/status`);

/** A short LiveKit token for this device in the conversation's call. */
export const callTicket = (conversationId: string, device: string) => api<CallTicket>(`/api/calls/${conversationId}/token`, { device });

/**
 * Tells the members' open pages that this page joined or left the call (`ring`: it started a direct
 * call), or declined its ring (the user's other pages stop ringing; the caller's says so).
 */
export const announcePresence = (conversationId: string, event: "joined" | "left" | "declined", ring = false) =>
  api<{ ok: true }>(`/api/calls/${conversationId}/presence`, { event, ...(ring ? { ring } : {}) });

/** The conversation's latest ended calls (PocketBase's records, members only). */
export const callRecords = (conversationId: string) =>
  api<{ records: CallRecordShape[] }>(`/api/calls/${conversationId}/records`).then((answer) => answer.records);
