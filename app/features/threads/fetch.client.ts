import { api } from "~/lib/api.client";
import type { EncryptedMessage } from "~/conversation/messages/types";

/** One thread as the server keeps it: its root, replies and their annotations (ciphertext). */
export const fetchThread = (channelId: string, rootId: string) =>
  api<{ messages: EncryptedMessage[] }>(`/api/channels/${channelId}/threads/${rootId}`);
