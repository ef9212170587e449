import { describe, expect, it } from "vitest";
import { mergedCount, positionBefore, type Arrival } from "~/features/unread/merge";
import type { UnreadCount } from "~/features/unread/types";

// A load of the unread counts and messages arriving live while it is on its way (the title read
// "(1) ChatCrypt" after two messages: the answer counted the first, which the page had not received
// live, and the page had received the second, which the answer had not counted).

const t = (s: number) => `2026-11-29 08:00:${String(s).padStart(2, "0")}.000Z`;
const arrival = (seq: number, created: string, mention = false): Arrival => ({ channelId: "c", created, mention, seq });
const answer = (count: number, newest: string): UnreadCount => ({ channelId: "c", count, since: t(0), newest });

describe("unread counts loaded while messages arrive", () => {
  it("counts a message the answer missed once, beside one only the answer has", () => {
    // the load began after arrival 0; "one" (t1) is in the answer only, "two" (t2) arrived live only
    expect(mergedCount([arrival(1, t(2))], answer(1, t(1)), 0)).toEqual({ count: 2, mentions: 0 });
  });

  it("does not count twice what arrived live during the load and is in the answer", () => {
    expect(mergedCount([arrival(1, t(1)), arrival(2, t(2), true)], answer(2, t(2)), 0)).toEqual({ count: 2, mentions: 0 });
    expect(mergedCount([arrival(1, t(1)), arrival(2, t(2), true)], answer(1, t(1)), 0)).toEqual({ count: 2, mentions: 1 });
  });

  it("leaves to the answer what arrived before the load began (also when it was read elsewhere since)", () => {
    expect(mergedCount([arrival(1, t(1)), arrival(2, t(2))], answer(2, t(2)), 2)).toEqual({ count: 2, mentions: 0 });
    expect(mergedCount([arrival(1, t(1))], undefined, 1)).toEqual({ count: 0, mentions: 0 });
  });

  it("counts what arrived during the load in a channel the answer had nothing unread for", () => {
    expect(mergedCount([arrival(3, t(5), true)], undefined, 2)).toEqual({ count: 1, mentions: 1 });
  });
});

describe("the read position before a conversation's first unread message that arrived live", () => {
  it("lies between that message and the one before, so the New messages line goes above it", () => {
    const before = positionBefore("2026-11-29 08:00:05.000Z");
    expect(before).toBe("2026-11-29 08:00:04.999Z");
    expect("2026-11-29 08:00:05.000Z" > before).toBe(true);
    expect("2026-11-29 08:00:04.998Z" > before).toBe(false);
  });

  it("crosses a day's end", () => {
    expect(positionBefore("2026-12-01 00:00:00.000Z")).toBe("2026-11-30 23:59:59.999Z");
  });
});
