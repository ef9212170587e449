const listeners = new Set<() => void>();

/** The live stream said a new device asks for approval, or a request was answered: the list is read again. */
export function deviceLinksChanged() {
  for (const listener of listeners) listener();
}

export function onDeviceLinksChanged(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
