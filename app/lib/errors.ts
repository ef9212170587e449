/** An error whose message is one of the product's texts, meant for the person at the screen. */
export class ChatError extends Error {
  /** Said as it is even where the page otherwise gives a general failure (it tells what to wait for or do). */
  telling = false;
  /** Waits on this device and is tried again (the outbox holds it): someone has yet to let the user's message through. */
  held = false;
}

/** This device holds no key bundle for the account: the user has to sign in again here. */
export class KeysMissingError extends ChatError {
  constructor() {
    super("Encryption keys not found. Please sign in again on this device.");
  }
}

/**
 * Nobody but the sender is in the direct conversation's group yet (a request not accepted, ADR 0052):
 * the message waits on this device, and is sent once someone has joined.
 */
export class NobodyJoinedError extends ChatError {
  held = true;
}

/** The error's own text when it is one of ours, otherwise the fallback. */
export const messageOf = (error: unknown, fallback: string) => (error instanceof ChatError && error.message ? error.message : fallback);

/** What a page is told when its session was signed out elsewhere (Account > Devices, a password change). */
export const SESSION_ENDED_MESSAGE = "Your session has ended. Please sign in again.";

/** What a deactivated account's pages, sign-ins and passkey sign-ins are told (ADR 0056, pocketbase/deactivated.go). */
export const DEACTIVATED_MESSAGE = "This account was deactivated by an administrator.";

/** The same, when the identity provider no longer knows the account (docs/decisions/0064-leavers-follow-the-provider.md). */
export const PROVIDER_DEACTIVATED_MESSAGE = "This account was deactivated by the identity provider.";

/** What a page is told when an administrator's "Sign out all devices" ended its session (pocketbase/admin_signout.go). */
export const ADMIN_SIGNED_OUT_MESSAGE = "An administrator signed you out of all devices. Please sign in again.";

/** Why the server ended a session, when its answer says (deactivated, signed out by an administrator), or null. */
export const sessionEndReason = (message: string | undefined | null): string | null =>
  message === DEACTIVATED_MESSAGE || message === PROVIDER_DEACTIVATED_MESSAGE || message === ADMIN_SIGNED_OUT_MESSAGE ? message : null;
