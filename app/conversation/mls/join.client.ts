/**
 * How a device becomes a member of a sealed channel's or direct conversation's MLS group (ADR 15, 19):
 * the creator's first device makes the group (a direct conversation's with its signed participant
 * list); every other device joins by external commit, after showing the delivery service its proof
 * (the channel password's verifier, or nothing for a listed participant). A direct conversation's list
 * is checked before this device commits anything to the group.
 */
import type { ClientState, KeyPackage } from "ts-mls";
import { base64UrlDecode, base64UrlEncode } from "~/crypto/bytes";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { ChannelDelivery } from "./delivery.client";
import { newDeviceKeyPackage } from "./identity.client";
import { externalJoin, groupInfo, newGroup } from "./mls";
import { rosterExtension, type Roster } from "./roster";
import type { RosterGuard } from "./roster.client";
import type { JoinProof } from "./types";
import { claimParticipants, joinFromWelcome, welcomeParticipants } from "./welcome.client";
import { words } from "./words";

const ATTEMPTS = 5;
const b64 = base64UrlEncode;

export interface Joining {
  user: SessionUser;
  channel: Channel;
  delivery: ChannelDelivery;
  proof: JoinProof;
  guard: RosterGuard | null;
  /**
   * A conversation this page has just made: the participants the creator chose (none for a sealed
   * channel). Its group is made without asking the server for one first (none can be there yet: the
   * question's "not found" was an error line in the browser's console at every new conversation).
   */
  participants?: readonly string[];
  /** False for a device that was a member before (its Welcome, if any, is for a leaf it can no longer use). */
  fromWelcome: boolean;
}

/** The device's state in the group once the delivery service accepted it. */
export async function joinGroup(j: Joining): Promise<ClientState> {
  const proof = await j.proof();
  // A device added with a Welcome joins from it.
  const welcomed = j.guard && j.fromWelcome ? await joinFromWelcome(j.user, j.channel).catch(() => null) : null;
  if (welcomed) {
    await j.guard!.adopt(welcomed);
    return welcomed;
  }
  let claimed: ReturnType<typeof claimParticipants> | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const info = attempt === 0 && j.participants ? null : await j.delivery.groupInfo(proof);
    if (!info && j.channel.createdBy !== j.user.id) throw new ChatError(words(j.channel).noGroup);
    if (!info) {
      // The creator's first device makes the group.
      const users = j.participants ?? j.channel.participants?.map((p) => p.id) ?? [];
      // The participants' key packages first (waiting a bounded time for anyone with none yet): the
      // group reaches the server only when its first commit can add them, so no device of theirs joins
      // by itself in between and the first message is sealed for all of them.
      const packages = j.guard ? await (claimed ??= claimParticipants(j.user, j.channel.id, users)) : [];
      const state = await ownGroup(j, j.guard ? await j.guard.first(users) : null);
      if (!(await j.delivery.write("group", { groupInfo: b64(await groupInfo(state)) }))) continue;
      return j.guard ? addWelcomed(j, state, packages) : state;
    }
    const made = await externalJoin(base64UrlDecode(info.group_info), await newDeviceKeyPackage(j.user));
    await j.guard?.adopt(made.state);
    const accepted = await j.delivery.write("external-join", {
      ...proof,
      epoch: info.epoch,
      commit: b64(made.commit),
      groupInfo: b64(await groupInfo(made.state)),
      ecdhPublicKey: j.user.ecdhPublicKey,
    });
    if (accepted) return made.state;
  }
  throw new ChatError(words(j.channel).joinFailed);
}

/** A new group with this device as its only member (a direct conversation's with its signed participant list). */
export async function ownGroup(j: Joining, roster: Roster | null): Promise<ClientState> {
  const device = await newDeviceKeyPackage(j.user);
  const extensions = roster ? [rosterExtension(roster)] : [];
  const state = await newGroup(j.channel.id, device, extensions);
  await j.guard?.adopt(state);
  return state;
}

/** A direct conversation's participants' devices added with a Welcome (those without a key package join by themselves). */
export const welcomeAll = (j: Joining, state: ClientState, users: readonly string[]): Promise<ClientState> =>
  j.guard
    ? claimParticipants(j.user, j.channel.id, users).then(
        (packages) => addWelcomed(j, state, packages),
        () => state,
      )
    : Promise.resolve(state);

/**
 * The participants' devices added with a Welcome, and seen by the guard: a device it added is one it
 * knows, so a participant later taken off the list (deactivated, leaving) is not taken for a device put
 * in without a participant adding it.
 */
async function addWelcomed(j: Joining, state: ClientState, packages: KeyPackage[]): Promise<ClientState> {
  const next = await welcomeParticipants(j.delivery, state, packages).catch(() => state);
  await j.guard?.follow(next);
  return next;
}
