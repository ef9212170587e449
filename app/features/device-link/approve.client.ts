import { linkCode, newLinkKeyPair, sealForDevice, type LinkKeyPair } from "~/crypto";
import { api, ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import { loadLocalKeys } from "~/lib/storage.client";
import type { PendingLink } from "~/features/device-link/types";

// The signed-in device's side of an approval (ADR 0059): it takes a new device's request with an
// ephemeral key of its own, shows the code of both keys, and seals the account's keys to the new device.

export interface Answering {
  link: PendingLink;
  code: string;
  keys: LinkKeyPair;
}

// this page's ephemeral key per request it took (kept in memory only)
const taken = new Map<string, LinkKeyPair>();

/**
 * The request this page is to show: the newest one nobody answers yet (taken now), or the one it took
 * already; null when there is none (or this device holds no keys to give).
 */
export async function nextRequest(userId: string, skip: ReadonlySet<string>): Promise<Answering | null> {
  if (!loadLocalKeys(userId)) return null;
  const { requests } = await api<{ requests: PendingLink[] }>("/api/device-links");
  for (const link of requests) {
    if (skip.has(link.id)) continue;
    const own = taken.get(link.id);
    if (link.approverKey && link.approverKey !== own?.publicKey) continue;
    const keys = own ?? (await newLinkKeyPair());
    if (!link.approverKey) {
      try {
        await api(`/api/device-links/${link.id}/claim`, { approverKey: keys.publicKey });
      } catch (error) {
        // another of the user's devices answers it, or it went meanwhile
        if (error instanceof ApiError && (error.status === 409 || error.status === 404)) continue;
        throw error;
      }
      taken.set(link.id, keys);
    }
    return { link, keys, code: await linkCode(link.id, link.deviceKey, keys.publicKey) };
  }
  return null;
}

export async function approveRequest(userId: string, answering: Answering) {
  const stored = loadLocalKeys(userId);
  if (!stored) throw new ChatError("This device holds no encryption keys to give.");
  const { userId: _owner, ...bundle } = stored;
  const sealed = await sealForDevice(bundle, answering.keys, { id: answering.link.id, deviceKey: answering.link.deviceKey });
  await api(`/api/device-links/${answering.link.id}/approve`, { approverKey: answering.keys.publicKey, sealed });
  taken.delete(answering.link.id);
}

/** Lets the request go unanswered (Esc): another of the user's devices, or this one after a reload, may take it. */
export async function releaseRequest(answering: Answering) {
  taken.delete(answering.link.id);
  await api(`/api/device-links/${answering.link.id}/release`, { approverKey: answering.keys.publicKey });
}

export async function denyRequest(answering: Answering) {
  await api(`/api/device-links/${answering.link.id}/deny`, {});
  taken.delete(answering.link.id);
}
