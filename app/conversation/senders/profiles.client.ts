/**
 * Public profiles: usernames and identity public keys of other users, with their signature keys
 * imported, fetched once per page. What is trusted of them is decided against the pins (pins.client.ts).
 */
import { importRsaPublicKey } from "~/crypto";
import { api } from "~/lib/api.client";
import type { PublicProfile } from "~/conversation/senders/types";

export type SenderProfile = { profile: PublicProfile; verifyKey: CryptoKey };

const profileCache = new Map<string, Promise<SenderProfile | null>>();
/** Users the server answered no profile for (not one whose look-up failed: that one is asked for again). */
const withoutProfile = new Set<string>();

async function fetchProfiles(ids: string[]) {
  const { profiles } = await api<{ profiles: PublicProfile[] }>(`/api/profiles?ids=${ids.map(encodeURIComponent).join(",")}`);
  return new Map(profiles.map((p) => [p.id, p]));
}

/** When this page learned that a user was deactivated (their kept profile says so). */
const deactivatedSince = new Map<string, number>();

/** A profile with its signature key imported. */
async function withKey(profile: PublicProfile): Promise<SenderProfile> {
  withoutProfile.delete(profile.id);
  if (profile.deactivated) deactivatedSince.set(profile.id, Date.now());
  return { profile, verifyKey: await importRsaPublicKey(profile.rsaPublicKey) };
}

/**
 * A deactivated account sends nothing: one of these records sent by a user after this page learned they
 * were deactivated means they are back (reactivated), and their profile is asked for again (it said
 * "(deactivated)" beside their new messages until a reload).
 */
export function forgetIfBack(records: readonly { senderId: string; created: string }[]) {
  for (const { senderId, created } of records) {
    const since = deactivatedSince.get(senderId);
    if (since === undefined || Date.parse(created.replace(" ", "T")) <= since) continue;
    deactivatedSince.delete(senderId);
    profileCache.delete(senderId);
  }
}

/** When each kept profile was asked for. */
const keptAt = new Map<string, number>();

/** Keeps a user's profile for this page (forgotten if it could not be had, so that it is asked for again). */
function keep(id: string, entry: Promise<SenderProfile | null>) {
  profileCache.set(id, entry);
  keptAt.set(id, Date.now());
  entry.catch(() => profileCache.delete(id));
}

export const knownWithoutProfile = (id: string) => withoutProfile.has(id);

/** Forgets a user's profile: the next look-up asks the server again (their keys may have changed). */
export function forgetProfile(id: string) {
  profileCache.delete(id);
}

/**
 * The live stream said an administrator deactivated this user: known so here even when their profile
 * can no longer be read (someone who never wrote in a conversation the viewer still has), and their
 * kept profile is asked for again (their messages are then named "(deactivated)"). Reactivated: not.
 */
export function deactivatedLive(id: string, deactivated = true) {
  if (deactivated) deactivatedSince.set(id, Date.now());
  else deactivatedSince.delete(id);
  profileCache.delete(id);
}

/** Whether this page learned that the user is deactivated (their profile said so, or the live stream). */
export const knownDeactivated = (id: string) => deactivatedSince.has(id);

/** Profiles that came with a page of history: kept as if fetched (those already known stay as they are). */
export function primeProfiles(profiles: readonly PublicProfile[]) {
  for (const profile of profiles) if (!profileCache.has(profile.id)) keep(profile.id, withKey(profile));
}

/**
 * A user's profile as the server has it now, asked for this once and not kept: what the page checks its
 * messages against stays as it was (a list of participants is signed again on it, roster.client.ts).
 */
export async function profileNow(id: string): Promise<SenderProfile | null> {
  const profile = (await fetchProfiles([id])).get(id);
  return profile ? { profile, verifyKey: await importRsaPublicKey(profile.rsaPublicKey) } : null;
}

/** Usernames and public keys of these users, with their signature keys imported; fetched once per page. */
export async function senderProfiles(ids: string[]) {
  const missing = [...new Set(ids)].filter((id) => !profileCache.has(id));
  for (let i = 0; i < missing.length; i += 100) {
    const chunk = missing.slice(i, i + 100);
    const fetched = fetchProfiles(chunk);
    for (const id of chunk)
      keep(
        id,
        fetched.then((found) => {
          const profile = found.get(id);
          if (!profile) withoutProfile.add(id);
          return profile ? withKey(profile) : null;
        }),
      );
  }
  const out = new Map<string, SenderProfile | null>();
  for (const id of new Set(ids)) out.set(id, await profileCache.get(id)!.catch(() => null));
  return out;
}

/**
 * These users' profiles, those kept longer than `maxAgeMs` asked for again: where a decision rests on a
 * user's key of now (their reset may have changed it while the page stayed open).
 */
export function recentProfiles(ids: string[], maxAgeMs: number) {
  const now = Date.now();
  for (const id of ids) if (now - (keptAt.get(id) ?? now) > maxAgeMs) forgetProfile(id);
  return senderProfiles(ids);
}
