/** One signed-in session of the account, as the Devices list shows it. Times are ISO 8601 (UTC). */
export interface DeviceSession {
  id: string;
  /** Browser and system, e.g. "Chrome on Linux" (~/lib/user-agent). */
  agent: string;
  firstSeen: string;
  lastSeen: string;
  /** The session of the browser asking. */
  current: boolean;
}
