/** Shapes that travel between the web server and the page. Message content is always ciphertext here. */
export interface Channel {
  id: string;
  name: string;
  createdBy: string;
  created: string;
  kdfIterations: number;
  /** An MLS group (docs/decisions/0015-sealed-channels-mls.md) rather than one key from the password. */
  sealed: boolean;
  /** A direct conversation (an MLS group of listed participants, no password; ADR 0019). */
  direct?: boolean;
  /** A direct conversation between two people only (people are added to groups only). */
  oneToOne?: boolean;
  /** A group conversation's name, sealed inside its MLS group (features/direct/names.ts): ciphertext only. */
  sealedName?: string;
  /** A one-to-one whose other person an administrator deactivated (ADR 0056): nothing written there reaches anyone. */
  partnerDeactivated?: boolean;
  /** A one-to-one whose other person deleted their account (ADR 0029): nothing written there reaches anyone. */
  partnerDeleted?: boolean;
  /** A direct conversation's participants (the viewer too), by username. */
  participants?: { id: string; username: string }[];
}
