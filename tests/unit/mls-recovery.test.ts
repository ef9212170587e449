import { describe, expect, it } from "vitest";
import { ofEarlierGroup, replaced } from "../../app/conversation/mls/recovery.client";
import { sealedNotice } from "../../app/conversation/mls/notice";
import type { EncryptedMessage } from "../../app/conversation/messages/types";

// Which group a device is in, and which messages belong to an earlier one (ADR 0049).
const mark = (generation: number, reset_at = "") => ({ generation, reset_by: generation ? "aliceaaaaaaaaaa" : "", reset_at });
const record = (created: string) => ({ id: "m1", created, epoch: 0 }) as EncryptedMessage;
const status = { epoch: 1, code: "", before: 0, missed: 0, removed: false, rejoined: false, refused: [], tampered: false };

describe("groups replaced by their creator", () => {
  it("a state kept from before any reset is of the first group; a newer generation on the server replaced it", () => {
    expect(replaced({ joined: 0 }, undefined)).toBe(false);
    expect(replaced({ joined: 0 }, mark(0))).toBe(false);
    expect(replaced({ joined: 0 }, mark(1))).toBe(true);
    expect(replaced({ joined: 0, group: mark(1) }, mark(1))).toBe(false);
    expect(replaced({ joined: 0, group: mark(1) }, mark(2))).toBe(true);
  });

  it("a message stored before the reset belongs to the earlier group, one after it to the new one", () => {
    const group = mark(1, "2026-11-28 16:00:00.500Z");
    expect(ofEarlierGroup(record("2026-11-28 16:00:00.499Z"), group)).toBe(true);
    expect(ofEarlierGroup(record("2026-11-28T16:00:00.501Z"), group)).toBe(false);
    expect(ofEarlierGroup(record("2020-01-01 00:00:00.000Z"), mark(0))).toBe(false);
    expect(ofEarlierGroup(record("2020-01-01 00:00:00.000Z"), undefined)).toBe(false);
  });

  it("the conversation says who reset it, and when this device gave up", () => {
    expect(sealedNotice({ ...status, resetBy: "a1" }, () => "alice")).toBe("alice reset the encryption for this conversation.");
    expect(sealedNotice({ ...status, broken: true })).toBe("This sealed channel could not be opened on this device. Please try again.");
  });
});
