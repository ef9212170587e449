import { describe, expect, it } from "vitest";
import type { Channel } from "~/conversation/channels/types";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { unreadableRoot } from "~/conversation/messages/unreadable";

// A thread's first message a device cannot open stands in for its replies only where the device reads
// from its join (sealed channels, direct conversations), and only for a first message with replies.

const channel = (kind: "classic" | "sealed" | "direct") =>
  ({ id: "c1", name: "Plans", sealed: kind !== "classic", direct: kind === "direct" }) as unknown as Channel;
const record = (extra: Partial<EncryptedMessage> = {}): EncryptedMessage => ({
  id: "root1",
  channelId: "c1",
  senderId: "alice",
  encryptedContent: "ciphertext",
  created: "2026-12-05 10:00:00.000Z",
  epoch: 1,
  ...extra,
});
const roots = (id: string) => id === "root1";
const alice = { id: "alice", username: "alice" };

describe("unreadableRoot", () => {
  it("stands in for a first message with replies in a sealed channel or a direct conversation, with nothing of its content", () => {
    for (const kind of ["sealed", "direct"] as const) {
      expect(unreadableRoot(channel(kind), record(), roots, alice, "carol")).toEqual({
        id: "root1",
        channelId: "c1",
        senderId: "alice",
        senderUsername: "alice",
        text: "",
        created: "2026-12-05 10:00:00.000Z",
        own: false,
        fileHashes: [],
        attachments: [],
        previews: [],
        unreadable: true,
      });
    }
    expect(unreadableRoot(channel("sealed"), record(), roots, alice, "alice")?.own).toBe(true);
  });

  it("stands in for nothing else", () => {
    // a classic channel reads its whole history: what does not open there is dropped (spec §8)
    expect(unreadableRoot(channel("classic"), record(), roots, alice, "carol")).toBeNull();
    // a message without replies, a reply, an annotation
    expect(unreadableRoot(channel("sealed"), record({ id: "other" }), roots, alice, "carol")).toBeNull();
    expect(unreadableRoot(channel("sealed"), record(), undefined, alice, "carol")).toBeNull();
    expect(unreadableRoot(channel("sealed"), record({ thread: "root0", kind: "reply" }), roots, alice, "carol")).toBeNull();
    expect(unreadableRoot(channel("sealed"), record({ kind: "reaction", targetId: "x" }), roots, alice, "carol")).toBeNull();
  });
});
