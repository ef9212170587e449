/**
 * The participants a new direct conversation's creator is waiting for (ADR 0047): users none of whose
 * devices has a key package yet (someone who signed up a moment ago), by user id. The people picker
 * shows "Waiting for NAME's device..." while this is not empty. No MLS code: the picker reads it.
 */
import { emit, on } from "~/lib/events";

const NONE: readonly string[] = [];
let waiting = NONE;

export const waitingFor = () => waiting;
export const noneWaiting = () => NONE;

export function setWaitingFor(userIds: readonly string[]) {
  waiting = userIds.length === 0 ? NONE : [...userIds];
  emit("direct:waiting");
}

export const subscribeWaiting = (listener: () => void) => on("direct:waiting", listener);
