import { describe, expect, it, vi } from "vitest";

// The keyring is opened by the channel list's reloads and by a look for a channel's new password; an
// opening that read the keyring before another adopted a new password would store the old one again
// after it (ADR 0060). Openings run one after another.
// Stand-ins for the server's keyring and key shares (keyring.client.ts, shares.client.ts): each
// records when it starts and ends.
const order = vi.hoisted(() => [] as string[]);
vi.mock("~/conversation/keyring/keyring.client", () => ({
  syncKeyring: async (userId: string) => {
    order.push(`read ${userId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (userId === "unreachable") throw new Error("the keyring could not be read");
    if (userId === "hanging") await new Promise(() => undefined);
    return [];
  },
  saveToKeyring: () => Promise.resolve(),
}));
vi.mock("~/conversation/channels/shares.client", () => ({
  adoptShares: async (userId: string, synced: unknown[]) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push(`adopted ${userId}`);
    return synced;
  },
}));

const { openKeyring } = await import("~/conversation/channels/secrets.client");

describe("keyring openings", () => {
  it("run one after another, each reading the keyring after the one before adopted its shares", async () => {
    await Promise.all([openKeyring("first", ["c1"]), openKeyring("second", ["c1"]), openKeyring("third", ["c1"])]);
    expect(order).toEqual(["read first", "adopted first", "read second", "adopted second", "read third", "adopted third"]);
  });

  it("a failed opening does not stop the next", async () => {
    order.length = 0;
    const failing = openKeyring("unreachable", ["c1"]).catch((error: Error) => error.message);
    await expect(Promise.all([failing, openKeyring("after", ["c1"])])).resolves.toEqual(["the keyring could not be read", undefined]);
    expect(order).toEqual(["read unreachable", "read after", "adopted after"]);
  });

  it("an opening whose requests hang holds the next for ten seconds at most", async () => {
    order.length = 0;
    vi.useFakeTimers();
    try {
      void openKeyring("hanging", ["c1"]);
      const next = openKeyring("after hang", ["c1"]);
      await vi.advanceTimersByTimeAsync(9_000);
      expect(order).toEqual(["read hanging"]);
      await vi.advanceTimersByTimeAsync(1_100);
      await vi.advanceTimersByTimeAsync(100);
      await next;
      expect(order).toEqual(["read hanging", "read after hang", "adopted after hang"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
