import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// Others' cards on a page (ADR 0075): a person whose card was not shared with the viewer a moment ago
// may share it now (a newcomer's page sees Alice's card key sealed to her seconds after she joined).
// Stand-ins: the server's /api/profile-cards (a card whose key is sealed to the viewer once `shared` is
// set) and the opening of that key (the real crypto is covered by profile-card-crypto.test.ts).
const server = vi.hoisted(() => ({ shared: false, fetches: 0 }));
vi.mock("~/lib/api.client", () => ({
  api: async (path: string) => {
    server.fetches += 1;
    const ids = new URL(path, "http://x").searchParams.get("ids")!.split(",");
    return { cards: ids.map((ownerId) => ({ ownerId, card: "sealed-card", sealedKey: server.shared ? "key" : null })) };
  },
}));
vi.mock("~/lib/device-keys.client", () => ({ deviceKeys: async () => ({ ecdhPrivateKey: {} }) }));
vi.mock("~/conversation/senders/profiles.client", () => ({
  senderProfiles: async (ids: string[]) => new Map(ids.map((id) => [id, { profile: { id, ecdhPublicKey: "pub" } }])),
}));
vi.mock("~/conversation/senders/pins.client", () => ({
  checkKeys: async (_me: string, p: { id: string }[]) => new Set(p.map((x) => x.id)),
}));
vi.mock("~/crypto", () => ({
  importEcdhPublicKey: async () => ({}),
  openProfileKey: async () => ({}),
  openCard: async () => ({ name: "Alice Liddell" }),
}));

const cards = await import("~/features/profile-cards/cards.client");
const alice = "alice00000000001";
const settle = () => vi.advanceTimersByTimeAsync(10);

async function seenAsMissing() {
  cards.setCardViewer(null);
  cards.setCardViewer("carol0000000001");
  server.shared = false;
  server.fetches = 0;
  cards.requestCard(alice);
  await settle();
  expect(server.fetches).toBe(1);
}

describe("a card not shared with the viewer a moment ago", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is asked for again once the miss is five seconds old when the page asks for it meanwhile", async () => {
    await seenAsMissing();
    server.shared = true;
    await vi.advanceTimersByTimeAsync(1_000);
    cards.requestCard(alice); // her new message is shown
    await settle();
    expect(server.fetches).toBe(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(server.fetches).toBe(2);
    expect(cards.knownCard(alice)).toEqual({ name: "Alice Liddell" });
  });

  it("is asked for again when the page asked for it while it was being fetched", async () => {
    cards.setCardViewer(null);
    cards.setCardViewer("carol0000000002");
    server.shared = false;
    server.fetches = 0;
    cards.requestCard(alice);
    await vi.advanceTimersByTimeAsync(0); // the fetch has started, not ended
    cards.requestCard(alice);
    server.shared = true;
    await vi.advanceTimersByTimeAsync(5_100);
    expect(server.fetches).toBe(2);
    expect(cards.knownCard(alice)).toEqual({ name: "Alice Liddell" });
  });

  it("is not asked for again when nothing on the page asks for it", async () => {
    await seenAsMissing();
    server.shared = true;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.fetches).toBe(1);
  });

  it("is asked for at most once per five seconds however often the page asks", async () => {
    await seenAsMissing();
    for (let i = 0; i < 20; i++) {
      cards.requestCard(alice);
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(3_000);
    expect(server.fetches).toBe(2);
  });
});
