/**
 * What the page learns for the service worker while it opens messages (app/features/push/learning.client.ts):
 * the notification permission (a round trip to the browser on every read) is read once per channel and
 * sender, not once per message.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

function browserWith(permission: NotificationPermission) {
  const reads = { count: 0 };
  class FakeNotification {
    static get permission() {
      reads.count += 1;
      return permission;
    }
  }
  vi.stubGlobal("navigator", { serviceWorker: {} });
  vi.stubGlobal("window", { PushManager: class {}, Notification: FakeNotification });
  vi.stubGlobal("Notification", FakeNotification);
  return reads;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("keys learnt for pushes", () => {
  it("reads the permission once per channel and sender, whatever the number of messages", async () => {
    const reads = browserWith("default");
    const { rememberForPush } = await import("~/features/push/learning.client");
    const key = {} as CryptoKey;
    for (let i = 0; i < 200; i++) rememberForPush("user1", "channel1", key, `sender${i % 5}`, key);
    expect(reads.count).toBe(5);
  });

  it("after pushes are turned on, the pairs seen are learnt again", async () => {
    const reads = browserWith("default");
    const { rememberForPush, forgetPushLearning } = await import("~/features/push/learning.client");
    const key = {} as CryptoKey;
    rememberForPush("user1", "channel1", key, "sender1", key);
    forgetPushLearning();
    rememberForPush("user1", "channel1", key, "sender1", key);
    expect(reads.count).toBe(2);
  });

  it("learns from each classic message the conversation core announces it opened", async () => {
    const reads = browserWith("default");
    await import("~/features/push/learning.client");
    const { emit } = await import("~/lib/events");
    const key = {} as CryptoKey;
    emit("message:opened-classic", { userId: "user1", channelId: "channel1", key, senderId: "sender1", verifyKey: key });
    emit("message:opened-classic", { userId: "user1", channelId: "channel1", key, senderId: "sender2", verifyKey: key });
    expect(reads.count).toBe(2);
  });
});
