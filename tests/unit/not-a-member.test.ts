import { describe, expect, it, vi } from "vitest";
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { SealedStatus } from "~/conversation/mls/types";

// A member added to a conversation after messages were sent was told "Messages sent before this device
// joined ... cannot be read here.", as if another of their devices could: none was in the conversation
// then. What was sent before the user's membership began is said apart from what only this device missed.
vi.mock("~/conversation/archive/archive.client", () => ({ restore: async () => new Map(), archive: async () => undefined }));
vi.mock("~/conversation/mls/read-store.client", () => ({ saveRead: async () => undefined, saveReadMany: async () => undefined }));

const { Reading } = await import("~/conversation/mls/reading.client");
const { sealedNotice } = await import("~/conversation/mls/notice");

const record = (id: string, epoch: number, created: string) => ({ id, epoch, created, encryptedContent: id }) as EncryptedMessage;
const status = (before: number): SealedStatus => ({
  epoch: 5,
  code: "",
  before,
  missed: 0,
  removed: false,
  rejoined: false,
  refused: [],
  tampered: false,
});

describe("messages from before a member joined", () => {
  it("counts, of those from before the device joined, the ones sent before the membership began", () => {
    const reading = new Reading("dave", "vault", new Map());
    reading.unreadable(record("m1", 1, "2026-12-02 09:00:00.000Z"), 4);
    reading.unreadable(record("m2", 2, "2026-12-02 09:30:00.000Z"), 4);
    reading.unreadable(record("m3", 3, "2026-12-02 10:30:00.000Z"), 4);
    // (sent after this device joined: missed, not from before)
    reading.unreadable(record("m4", 4, "2026-12-02 08:00:00.000Z"), 4);
    expect(reading.before).toBe(3);
    expect(reading.sentBefore("2026-12-02 10:00:00.000Z", 4)).toBe(2);
    expect(reading.sentBefore("2026-12-02T10:00:00.000Z", 4)).toBe(2);
    expect(reading.sentBefore("2026-12-02 08:59:00.000Z", 4)).toBe(0);
  });

  it("says which of them no device of the user can read, and which only this one cannot", () => {
    expect(sealedNotice(status(2), undefined, false, 2)).toBe("Messages sent while you were not in the sealed channel cannot be read.");
    expect(sealedNotice(status(2), undefined, true, 2)).toBe("Messages sent while you were not in the conversation cannot be read.");
    expect(sealedNotice(status(3), undefined, true, 2)).toBe(
      "Messages sent while you were not in the conversation cannot be read. Messages sent before this device joined the conversation cannot be read here.",
    );
    expect(sealedNotice(status(2), undefined, false, 0)).toBe(
      "Messages sent before this device joined the sealed channel cannot be read here.",
    );
    expect(sealedNotice(status(0), undefined, false, 0)).toBeNull();
  });
});
