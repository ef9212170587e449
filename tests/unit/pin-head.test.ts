import { describe, expect, it } from "vitest";
import { pinDigest, reconcile, type HeadContent } from "~/conversation/senders/pin-head.client";
import type { Pin } from "~/conversation/senders/types";

// What a page trusts of the pins the server sends, given their head and the device's own copy.
const bob: Pin = { e: "bob-e", r: "bob-r", v: true };
const bobUnverified: Pin = { ...bob, v: false };
const carol: Pin = { e: "carol-e", r: "carol-r", v: false };

async function headOf(c: number, pins: Record<string, Pin>): Promise<HeadContent> {
  const s: Record<string, string> = {};
  for (const [id, pin] of Object.entries(pins)) s[id] = await pinDigest(id, pin);
  return { c, s };
}
const served = (pins: Record<string, Pin>) => new Map(Object.entries(pins));
const copy = (c: number, pins: Record<string, Pin>) => ({ c, pins: new Map(Object.entries(pins)) });

describe("reconcile", () => {
  it("trusts pins the head names, and ignores the digest of none", async () => {
    const book = await reconcile(served({ bob, carol }), await headOf(4, { bob, carol }), copy(4, { bob, carol }));
    expect(book).toMatchObject({ closed: false, unchecked: new Set(), pins: served({ bob, carol }) });
    expect(book.head.c).toBe(4);
  });

  it("a pin the head names that is gone or older is unchecked without a copy, and taken from the copy with one", async () => {
    const head = await headOf(4, { bob, carol });
    const withoutCopy = await reconcile(served({ bob: bobUnverified }), head, null);
    expect(withoutCopy.unchecked).toEqual(new Set(["bob", "carol"]));
    expect(withoutCopy.pins.size).toBe(0);
    // the next head keeps their digests, so they stay unchecked until the user accepts keys
    expect(withoutCopy.head.s).toEqual(head.s);

    const withCopy = await reconcile(served({}), head, copy(4, { bob, carol }));
    expect(withCopy.unchecked).toEqual(new Set());
    expect(withCopy.pins).toEqual(served({ bob, carol }));
  });

  it("a head older than the device has seen, missing or unopenable closes first sight and keeps the copy's pins", async () => {
    const older = await reconcile(served({ bob: bobUnverified }), await headOf(2, { bob: bobUnverified }), copy(3, { bob }));
    expect(older.closed).toBe(true);
    expect(older.pins.get("bob")).toEqual(bob);
    expect(older.head.c).toBe(3);

    const missing = await reconcile(served({}), null, copy(3, { bob }));
    expect(missing.closed).toBe(true);
    expect(missing.pins).toEqual(served({ bob }));

    const broken = await reconcile(served({ carol }), "broken", copy(3, { bob }));
    expect(broken.closed).toBe(true);
    expect(broken.pins.has("carol")).toBe(false);
  });

  it("with neither head nor copy (the head's first use) the pins are taken as they are", async () => {
    const book = await reconcile(served({ bob }), null, null);
    expect(book).toMatchObject({ closed: false, unchecked: new Set(), pins: served({ bob }) });
    expect(book.head).toEqual(await headOf(0, { bob }));
  });
});

describe("a pin's previous keys (ADR 0051)", () => {
  it("count in its digest where there are any, so that a pin without them is not taken for one with them", async () => {
    const reset: Pin = { e: "bob-e2", r: "bob-r2", v: false, o: ["bob-r"] };
    expect(await pinDigest("bob", { ...bob, o: [] })).toBe(await pinDigest("bob", bob));
    expect(await pinDigest("bob", reset)).not.toBe(await pinDigest("bob", { ...reset, o: undefined }));
    // The server puts back the pin as it was before the previous key was kept: unchecked, from the head's digest.
    const book = await reconcile(served({ bob: { ...reset, o: undefined } }), await headOf(5, { bob: reset }), null);
    expect(book.unchecked).toEqual(new Set(["bob"]));
  });
});
