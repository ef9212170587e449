/**
 * A one-to-one that no device of its two people can open any more (ADR 0098): both reset their accounts
 * without their recovery keys, so the list of participants its group carries is signed by a key nobody
 * can check, and no page can sign it again. Either of them starts it afresh: a new group in place of the
 * old one (the reset of ADR 0049), whose list names the two of them, signed by this device's key of now.
 * The other person's devices join it and check that list against the key their page has for this user,
 * as for a new conversation. What was written before stays where it was, unreadable to the new devices.
 */
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { deliveryFor } from "./delivery.client";
import { epochOf } from "./mls";
import { storeMeta } from "./meta";
import { resetGroup } from "./recovery.client";
import { RosterGuard } from "./roster.client";
import { saveSealedState } from "./store.client";
import type { JoinProof } from "./types";

export async function startAfresh(user: SessionUser, channel: Channel, proof: JoinProof): Promise<void> {
  const partner = channel.participants?.find((p) => p.id !== user.id)?.id;
  if (!channel.oneToOne || !partner) throw new ChatError("Only a one-to-one conversation can be started afresh.");
  const guard = new RosterGuard(user, channel, null, () => undefined);
  // The new list's version: above any a device may trust from the old group (they only move up), so
  // the other person's devices that still trust one take it (a count of changes never comes near).
  guard.trusted = { v: Math.floor(Date.now() / 1000), users: [user.id, partner], by: user.id, sig: "" };
  const delivery = deliveryFor(channel.id);
  const { state, group } = await resetGroup({ user, channel, delivery, proof, guard, participants: [partner], fromWelcome: true });
  await saveSealedState(user.id, channel.id, state);
  storeMeta(user.id, channel.id, { joined: Number(epochOf(state)), group, ...(guard.trusted ? { roster: guard.trusted } : {}) });
}
