/**
 * Groups nobody can break (ADR 0049): how a device that lost step with its conversation's MLS group
 * gets back in, and how the creator replaces the group. A commit this device cannot process, or a
 * stored state it cannot use, sends it back in by external commit from the latest GroupInfo (the way a
 * new device joins), a bounded number of times; a group its creator replaced is joined anew (by Welcome
 * or external commit). What each device read stays in its read-store either way.
 */
import type { ClientState } from "ts-mls";
import { base64UrlEncode } from "~/crypto/bytes";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { groupInfo } from "./mls";
import { ownGroup, welcomeAll, type Joining } from "./join.client";
import type { GroupMark, Meta } from "./meta";

/** Rejoins a page tries before it says the conversation could not be opened here (a reload tries again). */
export const RECOVERIES = 3;

const time = (stamp: string) => Date.parse(stamp.replace(" ", "T"));

/** A message stored before the group this device is in replaced the one it was sent to. */
export function ofEarlierGroup(record: EncryptedMessage, group: GroupMark | undefined): boolean {
  return Boolean(group?.reset_at) && time(record.created) < time(group!.reset_at);
}

/** The server's group is not the one this device is in (a state kept from before any reset is of generation 0): its creator replaced it. */
export const replaced = (meta: Meta, current: GroupMark | undefined) =>
  Boolean(current && current.generation !== (meta.group?.generation ?? 0));

/**
 * The creator's device: a new group put in place of the old one. A direct conversation's keeps the
 * participant list this device trusts (signed one version on), and its participants are welcomed.
 */
export async function resetGroup(j: Joining): Promise<{ state: ClientState; group: GroupMark }> {
  const roster = j.guard ? await j.guard.renewed() : null;
  const users = roster?.users ?? [];
  const state = await ownGroup(j, roster);
  const { generation, reset_by, reset_at } = await j.delivery.reset(base64UrlEncode(await groupInfo(state)));
  return { state: await welcomeAll(j, state, users), group: { generation, reset_by, reset_at } };
}
