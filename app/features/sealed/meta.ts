/** Where a device keeps a sealed channel's membership facts (runtime.client.ts): not secret. */
export const metaEntry = (userId: string, channelId: string) => `chatcrypt.sealed-meta.${userId}.${channelId}`;
