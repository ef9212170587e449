import type PocketBase from "pocketbase";
import type { SessionUser } from "~/lib/session-user";
import { pbStatus } from "~/server/pocketbase.server";
import { mayCreateChannels, whoCanCreateChannels, type WhoCanCreateChannels } from "~/features/roles/workspace-settings.server";

type UserRecord = {
  id: string;
  email: string;
  /** the address typed at sign-up until its emailed link attaches it (docs/decisions/0082-pending-email-at-sign-up.md) */
  pending_email?: string;
  verified?: boolean;
  encrypted_ecdh_private_key?: string;
  encrypted_rsa_private_key?: string;
  kdf_iterations?: number;
  email_notifications_enabled?: boolean;
  email_include_content?: boolean;
  encrypted_settings?: string;
};

type ProfileRecord = {
  id: string;
  username: string;
  ecdh_public_key: string;
  rsa_public_key: string;
  role?: string;
  deactivated?: boolean;
};

export function toSessionUser(user: UserRecord, profile: ProfileRecord | null, who: WhoCanCreateChannels = "everyone"): SessionUser {
  const role = profile?.role || "member";
  return {
    id: user.id,
    email: user.email || user.pending_email || "",
    verified: Boolean(user.email && user.verified),
    profileFound: profile !== null,
    username: profile?.username ?? "",
    ecdhPublicKey: profile?.ecdh_public_key ?? "",
    rsaPublicKey: profile?.rsa_public_key ?? "",
    encryptedEcdhPrivateKey: user.encrypted_ecdh_private_key ?? "",
    encryptedRsaPrivateKey: user.encrypted_rsa_private_key ?? "",
    kdfIterations: user.kdf_iterations ?? 0,
    settings: {
      emailNotificationsEnabled: Boolean(user.email_notifications_enabled),
      emailIncludeContent: Boolean(user.email_include_content),
    },
    encryptedSettings: user.encrypted_settings ?? "",
    role,
    canCreateChannels: mayCreateChannels(role, who),
  };
}

/** The signed-in user's own record (wrapped keys, settings) and public profile. Null when the token is no longer valid. */
export async function loadSessionUser(pb: PocketBase, userId: string): Promise<SessionUser | null> {
  let user: UserRecord;
  try {
    user = await pb.collection("users").getOne<UserRecord>(userId);
  } catch (error) {
    if ([401, 403, 404].includes(pbStatus(error))) return null;
    throw error;
  }
  const [profile, who] = await Promise.all([loadProfile(pb, userId), whoCanCreateChannels(pb)]);
  return toSessionUser(user, profile, who);
}

export async function loadProfile(pb: PocketBase, userId: string): Promise<ProfileRecord | null> {
  try {
    return await pb.collection("profiles").getOne<ProfileRecord>(userId);
  } catch (error) {
    if (pbStatus(error) === 404) return null;
    throw error;
  }
}

/** What a deleted account's messages show as their sender (docs/decisions/0029-change-email-delete-export.md). */
export const DELETED_USER = "Deleted user";

/**
 * Usernames and public keys of the given users whom the caller may know (pocketbase/profiles_known.go:
 * those who share or shared a conversation with them, requesters, people they blocked), asked 100 at a
 * time; anyone else is left out. A deleted account answers as "Deleted user" with the public keys it
 * kept, so the messages it sent can still be verified.
 */
export async function listProfiles(pb: PocketBase, ids: string[]) {
  const out: ReturnType<typeof toPublicProfile>[] = [];
  const unique = [...new Set(ids)].filter((id) => /^[a-z0-9]{15}$/.test(id));
  for (let i = 0; i < unique.length; i += 100) {
    const { profiles } = await pb.send<{ profiles: (ProfileRecord & { deleted?: boolean })[] }>("/api/chat/profiles", {
      method: "GET",
      query: { ids: unique.slice(i, i + 100).join(",") },
    });
    out.push(...profiles.map((r) => toPublicProfile(r, Boolean(r.deleted))));
  }
  return out;
}

/**
 * A user's public profile as the page gets it, with their role; a deleted account's (its keys) answers
 * as "Deleted user"; a deactivated one says so (ADR 0056).
 */
export function toPublicProfile(
  r: { id: string; username?: string; ecdh_public_key: string; rsa_public_key: string; role?: string; deactivated?: boolean },
  deleted = false,
) {
  const keys = { ecdhPublicKey: r.ecdh_public_key, rsaPublicKey: r.rsa_public_key };
  if (deleted) return { id: r.id, username: DELETED_USER, ...keys, deleted: true as const };
  return {
    id: r.id,
    username: r.username ?? "",
    ...keys,
    role: r.role || "member",
    ...(r.deactivated ? { deactivated: true as const } : {}),
  };
}
