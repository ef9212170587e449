/** What a channel admin's page needs to change a classic channel's password: its current epoch and the other members. */
export interface PasswordChangeStart {
  epoch: number;
  members: string[];
}

/** A channel's password sealed to the reader by the admin who changed it (crypto/share.ts). */
export interface KeyShare {
  channelId: string;
  from: string;
  epoch: number;
  data: string;
}
