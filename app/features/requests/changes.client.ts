const listeners = new Set<() => void>();

/** The live stream said the user's memberships or requests changed: the requests are read again. */
export function requestsChanged() {
  for (const listener of listeners) listener();
}

export function onRequestsChanged(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
