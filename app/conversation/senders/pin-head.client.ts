import { sha256Base64 } from "~/crypto";
import { openJson, sealJson } from "~/conversation/keyring/vault.client";
import type { Pin, SealedHead } from "~/conversation/senders/types";

/**
 * The head of the user's pins: a counter and a digest of every pin, sealed under the keyring key. The
 * server holds it beside the pins and only checks that its counter grows; every device keeps its own
 * copy of the pins with the highest counter it has seen (sealed too, in this browser). Together they
 * turn a deleted, replaced or older pin (or head) into a warning instead of a first sight.
 */
export interface HeadContent {
  c: number;
  /** subject id -> digest of its pin */
  s: Record<string, string>;
}

/** The pins as this page trusts them, after checking what the server sent against the head and this device's copy. */
export interface PinBook {
  pins: Map<string, Pin>;
  /** Subjects the user pinned before whose pin is gone or not the one the head names: no first sight for them. */
  unchecked: Set<string>;
  /** The head itself could not be trusted and this device cannot tell which pins are missing: no first sight for anyone. */
  closed: boolean;
  /** The digests the next head starts from, and the highest counter seen. */
  head: HeadContent;
}

const headAad = (userId: string) => `chatcrypt:pin-head:v1:${userId}`;
const copyAad = (userId: string) => `chatcrypt:pin-copy:v1:${userId}`;
const COPY_PREFIX = "chatcrypt_pins_";

// A pin's previous keys (ADR 0051) count in its digest only where there are any: older pins keep theirs.
export const pinDigest = (subjectId: string, pin: Pin) =>
  sha256Base64(`${subjectId}\n${pin.e}\n${pin.r}\n${pin.v ? 1 : 0}${pin.o?.length ? `\n${pin.o.join(",")}` : ""}`);

const isHead = (value: unknown): value is HeadContent =>
  typeof value === "object" &&
  value !== null &&
  Number.isInteger((value as HeadContent).c) &&
  typeof (value as HeadContent).s === "object" &&
  (value as HeadContent).s !== null;

/** The head's content, null when there is none, "broken" when it does not open or its counter is not the one stored beside it. */
export async function openHead(userId: string, sealed: SealedHead | null): Promise<HeadContent | null | "broken"> {
  if (!sealed) return null;
  const head = await openJson(userId, "keyring", sealed.data, headAad(userId)).catch(() => null);
  return isHead(head) && head.c === sealed.counter ? head : "broken";
}

export async function sealHead(userId: string, head: HeadContent): Promise<SealedHead> {
  return { counter: head.c, data: await sealJson(userId, "keyring", head, headAad(userId)) };
}

/** This device's copy of the pins and the highest head counter it has seen (null before the first). */
export async function readCopy(userId: string): Promise<{ c: number; pins: Map<string, Pin> } | null> {
  const sealed = localStorage.getItem(COPY_PREFIX + userId);
  if (!sealed) return null;
  const copy = (await openJson(userId, "keyring", sealed, copyAad(userId)).catch(() => null)) as { c?: unknown; p?: unknown } | null;
  if (!copy || !Number.isInteger(copy.c) || typeof copy.p !== "object" || copy.p === null) return null;
  return { c: copy.c as number, pins: new Map(Object.entries(copy.p as Record<string, Pin>)) };
}

export async function writeCopy(userId: string, c: number, pins: ReadonlyMap<string, Pin>) {
  localStorage.setItem(COPY_PREFIX + userId, await sealJson(userId, "keyring", { c, p: Object.fromEntries(pins) }, copyAad(userId)));
}

/**
 * What the page may trust, from the pins the server sent (those that opened), its head and this
 * device's copy:
 * - a head that is authentic and not older than the copy names every pin: a pin that is missing or
 *   not the one named is taken from the copy when it has it, else the subject is `unchecked`;
 * - no head (while the copy has seen one), an older head or a head that does not open: the copy's
 *   pins are trusted, and nobody else is a first sight (`closed`);
 * - neither head nor copy: the pins are taken as they are (first use of the head on this account).
 */
export async function reconcile(
  served: ReadonlyMap<string, Pin>,
  head: HeadContent | null | "broken",
  copy: { c: number; pins: Map<string, Pin> } | null,
): Promise<PinBook> {
  const digests = new Map(await Promise.all([...served].map(async ([id, pin]) => [id, await pinDigest(id, pin)] as const)));
  const copyDigests = new Map(await Promise.all([...(copy?.pins ?? [])].map(async ([id, pin]) => [id, await pinDigest(id, pin)] as const)));
  const seen = copy?.c ?? 0;
  if (head === null && seen === 0) {
    return { pins: new Map(served), unchecked: new Set(), closed: false, head: { c: 0, s: Object.fromEntries(digests) } };
  }
  if (head === null || head === "broken" || head.c < seen) {
    const pins = new Map(copy?.pins ?? []);
    // an older head is still the user's own: the pins it names that are not in the copy are trusted too
    if (head !== null && head !== "broken")
      for (const [id, digest] of Object.entries(head.s)) if (!pins.has(id) && digests.get(id) === digest) pins.set(id, served.get(id)!);
    const s = { ...(head !== null && head !== "broken" ? head.s : {}), ...Object.fromEntries(copyDigests) };
    return { pins, unchecked: new Set(), closed: true, head: { c: Math.max(seen, head !== null && head !== "broken" ? head.c : 0), s } };
  }
  const pins = new Map<string, Pin>();
  const unchecked = new Set<string>();
  for (const [id, digest] of Object.entries(head.s)) {
    const pin = digests.get(id) === digest ? served.get(id) : copyDigests.get(id) === digest ? copy?.pins.get(id) : undefined;
    if (pin) pins.set(id, pin);
    else unchecked.add(id);
  }
  return { pins, unchecked, closed: false, head: { c: head.c, s: { ...head.s } } };
}
