// Retention on the page (docs/decisions/0065-retention.md): the header's and the export's words, the
// cutoff, and what a device drops from its search index and history cache.
import { describe, expect, it } from "vitest";
import { SearchIndex, type SearchDoc } from "~/features/search/engine";
import { parseQuery } from "~/features/search/query";
import { cutoffOf, keptFor, periodLabel, policyLine } from "~/features/retention/retention";
import { dropExpired } from "~/features/retention/prune.client";
import { forgetAllHistory, keepHistory, recallHistory, type KeptHistory } from "~/conversation/messages/history-cache.client";
import { formatExport } from "~/features/export/export";

const NOW = Date.parse("2026-11-29T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString().replace("T", " ");
const doc = (id: string, channelId: string, created: string): SearchDoc => ({
  id,
  channelId,
  senderId: "u1",
  sender: "alice",
  created,
  text: `note ${id}`,
  extra: "",
  hasFile: false,
});
const found = (index: SearchIndex) => index.search(parseQuery("note"), { channel: () => "general" }).map((hit) => hit.id);

describe("the words", () => {
  it("says how long messages are kept", () => {
    expect(keptFor(90)).toBe("Messages are kept for 90 days");
    expect(keptFor(1)).toBe("Messages are kept for 1 day");
    expect(keptFor(0)).toBe("");
    expect(policyLine(0)).toBe("Messages are kept forever");
    expect(policyLine(365)).toBe("Messages are kept for 365 days");
    expect(periodLabel(0)).toBe("Forever");
    expect(periodLabel(30)).toBe("30 days");
  });

  it("puts the policy that applied under the export's date", () => {
    const text = formatExport("general", [], new Date("2026-11-22T17:45:10Z"), { timeZone: "UTC", retention: policyLine(90) });
    expect(text.split("\n").slice(0, 3)).toEqual([
      "ChatCrypt export of #general",
      "Exported 2026-11-22 17:45",
      "Messages are kept for 90 days",
    ]);
  });

  it("cuts off at now minus the period, never for forever", () => {
    expect(cutoffOf(1, NOW)).toBe("2026-11-28T12:00:00.000Z");
    expect(cutoffOf(0, NOW)).toBeNull();
  });
});

describe("what a device drops", () => {
  it("drops from the index and the history cache exactly the messages older than their conversation's period", () => {
    const index = new SearchIndex();
    index.upsert([doc("a1", "A", daysAgo(3)), doc("a2", "A", daysAgo(0.5)), doc("b1", "B", daysAgo(3))]);
    index.dirty.clear();
    forgetAllHistory();
    const shown = (ids: [string, number][]): KeptHistory => ({
      messages: ids.map(([id, age]) => ({ id, created: daysAgo(age) }) as KeptHistory["messages"][number]),
      annotations: new Map([["r1", { id: "r1", targetId: ids[0][0] } as never]]),
      hasMore: false,
    });
    keepHistory(
      "u1",
      "A",
      shown([
        ["a1", 3],
        ["a2", 0.5],
      ]),
    );
    keepHistory("u1", "B", shown([["b1", 3]]));

    // A keeps 1 day, B forever
    expect(dropExpired(index, { days: 0, perChannel: true, keepPinned: false, channels: { A: 1 } }, NOW)).toBe(1);
    expect(found(index).sort()).toEqual(["a2", "b1"]);
    expect([...index.dirty]).toEqual(["A"]);
    expect(recallHistory("u1", "A")?.messages.map((m) => m.id)).toEqual(["a2"]);
    expect(recallHistory("u1", "A")?.annotations.size).toBe(0);
    expect(recallHistory("u1", "B")?.messages.map((m) => m.id)).toEqual(["b1"]);
  });

  it("drops what the last sweep removed by the sweep's clock when it is ahead of this device's", () => {
    const index = new SearchIndex();
    index.upsert([doc("a1", "A", daysAgo(0.75)), doc("a2", "A", daysAgo(0.25))]);
    const policy = { days: 1, perChannel: false, keepPinned: false, channels: { A: 1 } };
    // this device's clock alone keeps both; the server swept half a day later
    expect(dropExpired(index, policy, NOW)).toBe(0);
    const sweptAt = new Date(NOW + 0.5 * 86_400_000).toISOString();
    expect(dropExpired(index, { ...policy, sweptAt }, NOW)).toBe(1);
    expect(found(index)).toEqual(["a2"]);
    // a sweep's clock behind this device's changes nothing
    expect(dropExpired(index, { ...policy, sweptAt: new Date(NOW - 86_400_000).toISOString() }, NOW)).toBe(0);
  });

  it("drops nothing when pinned messages are kept: only the server tells them apart", () => {
    const index = new SearchIndex();
    index.upsert([doc("a1", "A", daysAgo(3))]);
    expect(dropExpired(index, { days: 1, perChannel: false, keepPinned: true, channels: { A: 1 } }, NOW)).toBe(0);
    expect(found(index)).toEqual(["a1"]);
  });
});
