import type { SealedStatus } from "~/conversation/mls/types";
import { letBackText } from "~/conversation/mls/words";

/**
 * What the conversation says about this device's view of a sealed channel or a direct conversation
 * (never a silent gap). A direct conversation is never called a channel (ADR 0050).
 */
export function sealedNotice(
  status: SealedStatus | null,
  nameOf: (userId: string) => string = (id) => id,
  direct = false,
  /** Of `status.before`, the messages sent while the user was not a member (none of their devices can read them). */
  beforeMember = 0,
): string | null {
  if (!status) return null;
  // (removed from a one-to-one they started again: the other person's page lets them back in, ADR 0098)
  if (status.letBackBy) return letBackText(nameOf(status.letBackBy));
  if (status.removed)
    return direct
      ? "You are no longer a participant in this conversation: messages sent since you were removed cannot be read."
      : "You are no longer a member of this sealed channel: messages sent since you were removed cannot be read.";
  const place = direct ? "the conversation" : "the sealed channel";
  const parts: string[] = [];
  if (status.broken)
    parts.push(
      direct
        ? "This conversation could not be opened on this device. Please try again."
        : "This sealed channel could not be opened on this device. Please try again.",
    );
  if (status.resetBy) parts.push(`${nameOf(status.resetBy)} reset the encryption for this conversation.`);
  if (status.rejoined) parts.push(`This device rejoined ${place}; messages sent while it was out of step cannot be read here.`);
  const notMember = Math.min(beforeMember, status.before);
  if (notMember > 0) parts.push(`Messages sent while you were not in ${place} cannot be read.`);
  if (status.before > notMember) parts.push(`Messages sent before this device joined ${place} cannot be read here.`);
  for (const userId of status.refused)
    parts.push(
      `A device of ${nameOf(userId)} was put into this conversation without a participant adding them: this device refused it, and nothing sent from here can be read by it.`,
    );
  if (status.tampered)
    parts.push(
      "This conversation's list of participants was changed without a participant's signature: this device keeps the one it trusts.",
    );
  if (status.pendingBy)
    parts.push(
      `${nameOf(status.pendingBy)} changed who is in this conversation with new keys you have not accepted yet: the change holds on this device once you accept them.`,
    );
  if (status.missed > 0) parts.push(`${status.missed} ${status.missed === 1 ? "message" : "messages"} could not be read on this device.`);
  return parts.length ? parts.join(" ") : null;
}
