/**
 * The group names this device has read (names.ts), kept on the device for the sidebar: the server's
 * list calls a group by its participants, and the page calls it by the name once it has read it.
 */
import { api } from "~/lib/api.client";

const entry = (userId: string, conversationId: string) => `chatcrypt.direct-name.${userId}.${conversationId}`;

export const knownName = (userId: string, conversationId: string) => localStorage.getItem(entry(userId, conversationId));

export const rememberName = (userId: string, conversationId: string, name: string) =>
  localStorage.setItem(entry(userId, conversationId), name);

/** The sealed name the server keeps for the conversation ("" when none). */
export const fetchSealedName = async (conversationId: string) =>
  (await api<{ sealed: string }>(`/api/direct/${conversationId}/name`)).sealed;

/** Keeps the name sealed for `epoch` (the group's current one; 409 when it moved on). */
export const storeSealedName = (conversationId: string, epoch: number, sealed: string) =>
  api(`/api/direct/${conversationId}/name`, { epoch, sealed });
