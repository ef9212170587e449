/** A member of a channel, as the members panel shows them. */
export interface ChannelMember {
  userId: string;
  username: string;
  isCreator: boolean;
  joined: string;
}
