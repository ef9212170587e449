import type { DecryptedMessage } from "~/features/messages/messages.client";

/**
 * Messages this page posted outside the composer (a call's entry, posted as the call window closes):
 * the open conversation's history takes them, as it takes what the composer sends (a page cannot read
 * its own MLS messages back from the live stream).
 */
const listeners = new Set<(message: DecryptedMessage) => void>();

export function sentElsewhere(message: DecryptedMessage) {
  listeners.forEach((listener) => listener(message));
}

export function onSentElsewhere(listener: (message: DecryptedMessage) => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
