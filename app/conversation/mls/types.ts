/** What a page knows about its device in a sealed channel (runtime.client.ts). */
export interface SealedStatus {
  epoch: number;
  /** The epoch authenticator as a short code members compare. */
  code: string;
  /** Messages sent before this device joined: not readable here, by design. */
  before: number;
  /** Messages this device should have read but could not. */
  missed: number;
  removed: boolean;
  rejoined: boolean;
  /** In a direct conversation: users whose devices the group carried without being on its list, refused here. */
  refused: string[];
  /** In a direct conversation: the group carried a participant list nobody on it signed, refused here. */
  tampered: boolean;
  /** In a direct conversation: who changed its list with new keys the viewer has not accepted yet (held, RosterGuard.pending). */
  pendingBy?: string;
  /** Who reset the conversation's encryption last (ADR 0049), if anyone did. */
  resetBy?: string;
  /** People an administrator deactivated whose devices this device saw leave the group (ADR 0056). */
  /** People an administrator deactivated whose devices this page removed, and when (a line among the messages). */
  removedByAdmin?: { userId: string; name: string; at: string }[];
  /** This device could not rejoin the group after losing step with it (ADR 0049): it stopped trying. */
  broken?: boolean;
  /** In a one-to-one: the other person, a member again on the server (they started it again) but not on its list (ADR 0098). */
  returning?: string[];
  /** In a one-to-one this device was removed from, whose user is a member again: the person who lets them back in (ADR 0098). */
  letBackBy?: string;
  /** In a one-to-one whose list is this user alone: the other person left (or was removed), and is not back. */
  partnerGone?: boolean;
  /** How many times the user's archive gave this page messages it had counted as unreadable (their texts are read again). */
  restored?: number;
}

/**
 * What the delivery service is shown before it hands out a group's GroupInfo or accepts an external
 * join: a sealed channel's password verifier, or nothing for a direct conversation (the server checks
 * that the caller is a listed participant). It throws when this device cannot give it.
 */
export type JoinProof = () => Promise<{ verifier?: string }>;
