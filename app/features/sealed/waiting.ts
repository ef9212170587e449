/**
 * The participants a new direct conversation's creator is waiting for (ADR 0047): users none of whose
 * devices has a key package yet (someone who signed up a moment ago), by user id. The people picker
 * shows "Waiting for NAME's device..." while this is not empty. No MLS code: the picker reads it.
 */
const NONE: readonly string[] = [];
let waiting = NONE;
const listeners = new Set<() => void>();

export const waitingFor = () => waiting;
export const noneWaiting = () => NONE;

export function setWaitingFor(userIds: readonly string[]) {
  waiting = userIds.length === 0 ? NONE : [...userIds];
  for (const listener of listeners) listener();
}

export function subscribeWaiting(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
