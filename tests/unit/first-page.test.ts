import { describe, expect, it } from "vitest";
import { newestFirst } from "~/features/messages/first-page";

const at = (n: number) => `2026-11-26 10:00:${String(n).padStart(2, "0")}.000Z`;
const message = (n: number) => ({ id: `m${String(n).padStart(3, "0")}`, created: at(n) });
const annotation = (n: number, kind: string, target: number) => ({ id: `a${n}`, created: at(n), kind, targetId: `m${target}` });

describe("a conversation's first page, newest first", () => {
  it("keeps a page no longer than what goes first whole", () => {
    expect(newestFirst([message(1), message(2)], 2)).toBeNull();
  });

  it("puts the newest messages first with every edit, reaction and pin created since the oldest of them", () => {
    // messages 0..9, in the page's order (messages, then annotations); an edit of 8 made at 9 s, a
    // reaction to 2 made at 3 s, a pin of 1 made at 9 s (newer than what goes first: it goes with it)
    const records = [
      ...Array.from({ length: 10 }, (_, i) => message(i)),
      annotation(9, "edit", 8),
      annotation(3, "reaction", 2),
      annotation(9, "pin", 1),
    ];
    const split = newestFirst(records, 3)!;
    expect(split.head.map((r) => r.id)).toEqual(["m007", "m008", "m009", "a9", "a9"]);
    expect(split.rest.map((r) => r.id)).toEqual(["m000", "m001", "m002", "m003", "m004", "m005", "m006", "a3"]);
  });

  it("orders by time then id, whatever the page's order (several messages in one millisecond)", () => {
    const same = [
      { id: "b", created: at(5) },
      { id: "a", created: at(5) },
      { id: "c", created: at(5) },
      { id: "z", created: at(1) },
    ];
    const split = newestFirst(same, 2)!;
    expect(split.head.map((r) => r.id).sort()).toEqual(["b", "c"]);
    expect(split.rest.map((r) => r.id).sort()).toEqual(["a", "z"]);
  });
});

describe("a page around a message, that message first", () => {
  it("puts the messages around it first, with every annotation created since the oldest of them", () => {
    const records = [...Array.from({ length: 10 }, (_, i) => message(i)), annotation(5, "reaction", 4), annotation(2, "edit", 1)];
    const split = newestFirst(records, 4, "m005")!;
    expect(split.head.map((r) => r.id)).toEqual(["m003", "m004", "m005", "m006", "a5"]);
    expect(split.rest.map((r) => r.id)).toEqual(["m000", "m001", "m002", "m007", "m008", "m009", "a2"]);
  });

  it("keeps as many at either end of the page, and nothing apart when the message is not in it", () => {
    const records = Array.from({ length: 10 }, (_, i) => message(i));
    expect(newestFirst(records, 4, "m000")).toMatchObject({ older: false, newer: true });
    expect(newestFirst(records, 4, "m000")!.head.map((r) => r.id)).toEqual(["m000", "m001", "m002", "m003"]);
    expect(newestFirst(records, 4, "m009")).toMatchObject({ older: true, newer: false });
    expect(newestFirst(records, 4, "m009")!.head.map((r) => r.id)).toEqual(["m006", "m007", "m008", "m009"]);
    expect(newestFirst(records, 4, "m005")).toMatchObject({ older: true, newer: true });
    expect(newestFirst(records, 4, "elsewhere")).toBeNull();
  });
});
