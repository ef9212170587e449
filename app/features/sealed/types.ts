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
}
