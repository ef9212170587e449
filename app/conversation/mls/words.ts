/**
 * What a sealed channel's errors say, and their direct-conversation variants: a direct conversation is
 * never called a channel (ADR 0050); a sealed channel keeps its words.
 */
export function words(channel: { direct?: boolean }) {
  if (channel.direct)
    return {
      removed: "You are no longer a participant in this conversation.",
      keysFailed: "The conversation's keys could not be updated. Please try again.",
      keysChanging: "The message could not be sent: the conversation's keys keep changing. Please try again.",
      noGroup: "This conversation is not ready yet. Please try again later.",
      joinFailed: "The conversation could not be joined. Please try again.",
      openFailed: "This conversation could not be opened on this device. Please try again.",
    };
  return {
    removed: "You are no longer a member of this sealed channel.",
    keysFailed: "The channel's keys could not be updated. Please try again.",
    keysChanging: "The message could not be sent: the channel's keys keep changing. Please try again.",
    noGroup: "This sealed channel has no group yet. Please try again later.",
    joinFailed: "The sealed channel could not be joined. Please try again.",
    openFailed: "This sealed channel could not be opened on this device. Please try again.",
  };
}

/** What a requester's page says while nobody has accepted their direct conversation yet. */
export const waitingText = (names: string) => `Waiting for ${names} to accept your request`;

/**
 * What a one-to-one says once the other person left it (its list is this user alone): what is written
 * waits in the outbox, and goes once they start it again and are let back in (ADR 0098).
 */
export const partnerGoneText = (name: string) =>
  `${name} is no longer in this conversation: what you write waits here until they start it again.`;

/** What a one-to-one says in place of its composer once an administrator deactivated the other person (ADR 0056). */
export const partnerDeactivatedText = (name: string) => `${name} was deactivated by an administrator: nothing written here can reach them.`;

/** What a one-to-one says in place of its composer once the other person deleted their account (ADR 0029). */
export const partnerDeletedText = "This person deleted their account: nothing written here can reach them.";

/** What a one-to-one says in place of its composer when nothing written there can reach the other person; else null. */
export const unreachableText = (channel: { name: string; partnerDeactivated?: boolean; partnerDeleted?: boolean }) =>
  channel.partnerDeleted ? partnerDeletedText : channel.partnerDeactivated ? partnerDeactivatedText(channel.name) : null;

/**
 * What a one-to-one says on the page of the person who left it (or was deactivated and is back) and
 * started it again: the other person's page puts them back on its list (ADR 0098).
 */
export const letBackText = (name: string) => `Waiting for ${name} to let you back into this conversation.`;

/** What the user writes while the group holds a device under someone's new keys they have not accepted (ADR 0051). */
export const keysNotAcceptedText = (names: string) =>
  `Waiting for you to accept the new keys of ${names}: what you write here goes once you do.`;

/**
 * Why a message waits while nobody else's device is in a direct conversation's group: the other person
 * of a one-to-one is back on the server but not let back in yet by this user (ADR 0098), or their
 * device (the others', in a group) has not joined yet.
 */
export function devicesAwaitedText(channel: { name: string; oneToOne?: boolean }, name: string, returning: boolean) {
  if (!channel.oneToOne) return "Waiting for the others' devices...";
  return returning ? `Waiting for you to let ${name} back in.` : `Waiting for ${name}'s device...`;
}

/**
 * Why a one-to-one cannot be opened on this device when the other person's devices in it hold under no
 * key of theirs this device knows, not even the one the server presents now: devices from before they
 * reset their account without the recovery key, which no device of this user ever saw (or a server's).
 * Trying again cannot help; starting it afresh does (ADR 0098).
 */
export const unknownKeysText = (name: string) =>
  `This conversation holds devices of ${name} under keys no device of yours has seen (from before ${name} reset their account, or not theirs): it cannot be opened on this device.`;
