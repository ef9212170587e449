/** A member of a channel, as the members panel shows them. */
export interface ChannelMember {
  userId: string;
  username: string;
  isCreator: boolean;
  /** Workspace role ("member" when none) and whether an administrator deactivated the account. */
  role?: string;
  deactivated?: boolean;
  /** Named a channel admin by the creator or a workspace admin (docs/decisions/0057-invites-and-bans.md). */
  isAdmin?: boolean;
  joined: string;
  /** In a direct conversation, the participant who added this one (none for its creator). */
  addedBy?: string;
}

/** A line in the open channel saying that someone joined or left. */
export interface MemberNotice {
  id: string;
  text: string;
  created: string;
}
