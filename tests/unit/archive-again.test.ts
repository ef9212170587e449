import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EncryptedMessage } from "~/conversation/messages/types";

// A device that cannot open messages from before it joined reads them from the user's archive (ADR
// 0048): again when more are missing, and again once its last reading is a minute old, for another
// device's upload may have landed after that reading (a new tablet kept "cannot be read here" for the
// rest of the page's life, 1 of 3).
const archived = vi.hoisted(() => ({ now: new Map<string, string>(), asked: 0 }));
vi.mock("~/conversation/archive/archive.client", () => ({
  restore: async () => {
    archived.asked += 1;
    return new Map(archived.now);
  },
  archive: async () => undefined,
}));
vi.mock("~/conversation/mls/read-store.client", () => ({ saveRead: async () => undefined, saveReadMany: async () => undefined }));

const { Reading } = await import("~/conversation/mls/reading.client");

const record = (id: string) => ({ id, epoch: 0, created: "2026-12-01 09:00:00.000Z", encryptedContent: id }) as EncryptedMessage;

describe("the archive read again for messages from before the join", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    archived.now = new Map();
    archived.asked = 0;
  });
  afterEach(() => vi.useRealTimers());

  it("a reading made before another device's upload is made again once it is a minute old", async () => {
    const reading = new Reading("alice", "dm", new Map());
    // two messages from before the join (epoch 0, joined at 1), not in the archive yet
    for (const id of ["m1", "m2"]) reading.unreadable(record(id), 1);
    await reading.readArchiveAgain(1);
    expect(archived.asked).toBe(1);
    expect(reading.before).toBe(2);

    // the other device uploads them; soon after, nothing new missing: not asked again yet
    archived.now = new Map([
      ["m1", "one"],
      ["m2", "two"],
    ]);
    vi.advanceTimersByTime(20_000);
    await reading.readArchiveAgain(1);
    expect(archived.asked).toBe(1);

    // a minute after the first reading: asked again, and both are read
    vi.advanceTimersByTime(40_000);
    await reading.readArchiveAgain(1);
    expect(archived.asked).toBe(2);
    expect(reading.before).toBe(0);
    expect(reading.texts([record("m1"), record("m2")])).toEqual(
      new Map([
        ["m1", "one"],
        ["m2", "two"],
      ]),
    );
  });

  it("more messages missing are looked for after ten seconds; nothing missing, never", async () => {
    const reading = new Reading("alice", "dm", new Map());
    await reading.readArchiveAgain(1);
    expect(archived.asked).toBe(0);
    reading.unreadable(record("m1"), 1);
    await reading.readArchiveAgain(1);
    reading.unreadable(record("m2"), 1);
    await reading.readArchiveAgain(1);
    expect(archived.asked).toBe(1);
    vi.advanceTimersByTime(10_000);
    await reading.readArchiveAgain(1);
    expect(archived.asked).toBe(2);
  });
});
