// A message asked to be brought into view (a jump, a search result, a link): the open message list
// scrolls to it when it holds it, also where the list mounts only the rows in view (a long history).
import { emit, on } from "~/lib/events";

let pending: string | null = null;

/** Asks the open list to bring message `id` into view (now, or once it holds it). */
export function revealMessage(id: string) {
  pending = id;
  emit("message:reveal");
}

/** The message waiting to be revealed, if `holds` it; it is then no longer waiting. */
export function takeReveal(holds: (id: string) => boolean): string | null {
  if (!pending || !holds(pending)) return null;
  const id = pending;
  pending = null;
  return id;
}

export const onReveal = (listener: () => void) => on("message:reveal", listener);
