/** Someone a direct conversation can be started with: a user id and their username. */
export interface Person {
  id: string;
  username: string;
  /** Workspace role and status, shown beside the name in the picker. */
  role?: string;
  deactivated?: boolean;
}

/** Participants of one direct conversation, its creator included (pb_hooks/lib/direct.js). */
export const MAX_PARTICIPANTS = 12;
