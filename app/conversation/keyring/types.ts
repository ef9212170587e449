/** One keyring entry as the page receives it: the channel it opens and the ciphertext. */
export interface EncryptedKeyringEntry {
  channelId: string;
  data: string;
}
