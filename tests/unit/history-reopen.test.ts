import { beforeEach, describe, expect, it } from "vitest";
import type { Annotation } from "~/conversation/messages/annotations";
import {
  forgetAllHistory,
  forgetHistory,
  keepHistory,
  KEPT_CONVERSATIONS,
  KEPT_MESSAGES,
  recallHistory,
} from "~/conversation/messages/history-cache.client";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { reconcileLatest } from "~/conversation/messages/reconcile";

const m = (n: number) => ({ id: `m${String(n).padStart(4, "0")}`, created: `2026-01-01 10:${String(n).padStart(4, "0")}` });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => m(from + i));
const reaction = (id: string, targetId: string) => ({ id, targetId });
const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);
const seen = (messages: { id: string }[], annotations: { id: string }[] = []) => ({
  messages: new Set(ids(messages)),
  annotations: new Set(ids(annotations)),
});

describe("reconcileLatest: a conversation shown from memory, caught up by the latest page", () => {
  it("drops messages deleted meanwhile, adds new ones and takes the page's edits and reactions", () => {
    const shown = range(1, 5);
    const old = [reaction("r1", "m0002"), reaction("r2", "m0004")];
    const fresh = [m(1), m(2), m(3), m(5), m(6)];
    const next = reconcileLatest({ messages: shown, annotations: new Map(old.map((a) => [a.id, a])), hasMore: false }, seen(shown, old), {
      messages: fresh,
      annotations: new Map([["r3", reaction("r3", "m0006")]]),
      hasMore: false,
    });
    expect(ids(next.messages)).toEqual(["m0001", "m0002", "m0003", "m0005", "m0006"]);
    expect([...next.annotations.keys()]).toEqual(["r3"]);
    expect(next.hasMore).toBe(false);
  });

  it("keeps older pages loaded before where the latest page joins them, with their reactions", () => {
    const shown = range(1, 10);
    const old = [reaction("r1", "m0002"), reaction("r9", "m0009")];
    const next = reconcileLatest({ messages: shown, annotations: new Map(old.map((a) => [a.id, a])), hasMore: true }, seen(shown, old), {
      messages: range(6, 12),
      annotations: new Map(),
      hasMore: true,
    });
    expect(ids(next.messages)).toEqual(ids(range(1, 12)));
    expect([...next.annotations.keys()]).toEqual(["r1"]);
    expect(next.hasMore).toBe(true);
  });

  it("starts afresh when more arrived meanwhile than the page holds (a gap)", () => {
    const shown = range(1, 5);
    const next = reconcileLatest({ messages: shown, annotations: new Map(), hasMore: false }, seen(shown), {
      messages: range(20, 30),
      annotations: new Map(),
      hasMore: true,
    });
    expect(ids(next.messages)).toEqual(ids(range(20, 30)));
    expect(next.hasMore).toBe(true);
  });

  it("keeps what arrived live while the page was on its way", () => {
    const before = range(1, 3);
    const live = m(9);
    const next = reconcileLatest(
      { messages: [...before, live], annotations: new Map([["r9", reaction("r9", live.id)]]), hasMore: false },
      seen(before),
      { messages: range(1, 4), annotations: new Map(), hasMore: false },
    );
    expect(ids(next.messages)).toEqual([...ids(range(1, 4)), live.id]);
    expect([...next.annotations.keys()]).toEqual(["r9"]);
  });

  it("shows an empty conversation when the page is empty (its messages were cleared)", () => {
    const shown = range(1, 3);
    const next = reconcileLatest({ messages: shown, annotations: new Map(), hasMore: true }, seen(shown), {
      messages: [],
      annotations: new Map(),
      hasMore: false,
    });
    expect(next.messages).toEqual([]);
    expect(next.hasMore).toBe(false);
  });
});

describe("the page's memory of conversations opened before", () => {
  const message = (n: number) => ({ ...m(n), text: `text ${n}` }) as unknown as DecryptedMessage;
  const kept = (messages: DecryptedMessage[], annotations: Annotation[] = []) => ({
    messages,
    annotations: new Map(annotations.map((a) => [a.id, a])),
    hasMore: false,
  });
  beforeEach(forgetAllHistory);

  it("answers what was kept, for the same user only", () => {
    keepHistory("alice", "c1", kept([message(1)]));
    expect(ids(recallHistory("alice", "c1")!.messages)).toEqual(["m0001"]);
    expect(recallHistory("bob", "c1")).toBeUndefined();
    // another user keeping something drops everything of the first
    keepHistory("bob", "c2", kept([message(2)]));
    expect(recallHistory("alice", "c1")).toBeUndefined();
  });

  it("keeps the last conversations used, up to its bound, and forgets on request and at sign-out", () => {
    for (let i = 0; i <= KEPT_CONVERSATIONS; i++) keepHistory("alice", `c${i}`, kept([message(i)]));
    expect(recallHistory("alice", "c0")).toBeUndefined();
    expect(recallHistory("alice", "c1")).toBeDefined();
    forgetHistory("c1");
    expect(recallHistory("alice", "c1")).toBeUndefined();
    forgetAllHistory();
    expect(recallHistory("alice", `c${KEPT_CONVERSATIONS}`)).toBeUndefined();
  });

  it("keeps the newest messages of a long conversation, with their reactions, and says older ones exist", () => {
    const many = Array.from({ length: KEPT_MESSAGES + 10 }, (_, i) => message(i));
    const annotations = [many[0], many.at(-1)!].map((t, i) => ({ id: `r${i}`, targetId: t.id }) as Annotation);
    keepHistory("alice", "c1", kept(many, annotations));
    const back = recallHistory("alice", "c1")!;
    expect(back.messages).toHaveLength(KEPT_MESSAGES);
    expect(back.messages.at(-1)!.id).toBe(many.at(-1)!.id);
    expect([...back.annotations.keys()]).toEqual(["r1"]);
    expect(back.hasMore).toBe(true);
  });
});
