import { describe, expect, it } from "vitest";
import { deletedMeanwhile, ofConversation, reconcileLatest, withoutRemoved } from "~/conversation/messages/reconcile";

// A page of history asked for before a deletion and merged after it (the deletion's live event came
// first) must not show what was deleted again: useChannelHistory shows what it holds without the ids
// the page was told were deleted.
type M = { id: string; created: string };
type A = { id: string; targetId: string };
const m = (id: string, created: string): M => ({ id, created });

describe("what was deleted while a page was on its way", () => {
  it("stays gone when the page's answer, older than the deletion, is merged after it", () => {
    const plan = m("plan00000000001", "2026-11-29 10:00:00.000Z");
    const remark = m("remark000000001", "2026-11-29 10:01:00.000Z");
    const reaction: A = { id: "reaction0000001", targetId: plan.id };
    // the answer still has the remark and the reaction (read before they were deleted)
    const stale = { messages: [plan, remark], annotations: new Map([[reaction.id, reaction]]), hasMore: false };
    const shown = { messages: [plan], annotations: new Map<string, A>(), hasMore: false };
    const merged = reconcileLatest(shown, { messages: new Set([plan.id]), annotations: new Set() }, stale);
    expect(merged.messages.map((x) => x.id)).toEqual([plan.id, remark.id]);
    const visible = withoutRemoved(merged.messages, merged.annotations, new Set([remark.id, reaction.id]));
    expect(visible.messages.map((x) => x.id)).toEqual([plan.id]);
    expect([...visible.annotations.keys()]).toEqual([]);
  });

  it("leaves what holds none of them as it was (the same lists: nothing is drawn again)", () => {
    const messages = [m("a00000000000001", "2026-11-29 10:00:00.000Z")];
    const annotations = new Map([["r00000000000001", { id: "r00000000000001", targetId: messages[0].id }]]);
    const visible = withoutRemoved(messages, annotations, new Set(["gone00000000001"]));
    expect(visible.messages).toBe(messages);
    expect(visible.annotations).toBe(annotations);
    expect(withoutRemoved(messages, annotations, new Set()).messages).toBe(messages);
  });
});

describe("the latest page read again after the live stream was away", () => {
  it("answers the lists shown as they were when it changes nothing (nothing is drawn again)", () => {
    const messages = [m("a00000000000001", "2026-11-29 10:00:00.000Z"), m("b00000000000001", "2026-11-29 10:01:00.000Z")];
    const reaction: A = { id: "r00000000000001", targetId: messages[0].id };
    const shown = { messages, annotations: new Map([[reaction.id, reaction]]), hasMore: false };
    const before = { messages: new Set(messages.map((x) => x.id)), annotations: new Set([reaction.id]) };
    const again = reconcileLatest(shown, before, {
      messages: [...messages],
      annotations: new Map([[reaction.id, reaction]]),
      hasMore: false,
    });
    expect(again.messages).toBe(messages);
    expect(again.annotations).toBe(shown.annotations);
    const taken = reconcileLatest(shown, before, { messages: [...messages], annotations: new Map(), hasMore: false });
    expect(taken.messages).toBe(messages);
    expect([...taken.annotations.keys()]).toEqual([]);
  });
});

describe("a message the latest page answers while the page shows it with more", () => {
  it("keeps the attachment that arrived live after the page was read", async () => {
    const { mergeMessages } = await import("~/features/messages/history-parts.client");
    type D = Parameters<typeof mergeMessages>[0][number];
    const picture = { id: "a00000000000001", created: "2026-11-29 10:00:00.000Z", attachments: [], previews: [] } as unknown as D;
    const withFile = { ...picture, attachments: [{ id: "f00000000000001", name: "diagram.png" }] } as unknown as D;
    const shown = { messages: [withFile], annotations: new Map<string, A>(), hasMore: false };
    const before = { messages: new Set([picture.id]), annotations: new Set<string>() };
    // the page was read before the attachment was stored: the message without it
    const again = reconcileLatest(shown, before, { messages: [picture], annotations: new Map(), hasMore: false }, mergeMessages);
    expect(again.messages.map((x) => x.attachments.map((f) => f.id))).toEqual([["f00000000000001"]]);
  });
});

describe("what the latest page's records no longer have, after the live stream was away", () => {
  const inTeam = (x: M) => ({ ...x, channelId: "team00000000001" });
  const a = inTeam(m("a00000000000001", "2026-11-29 10:00:00.000Z"));
  const b = inTeam(m("b00000000000001", "2026-11-29 10:01:00.000Z"));
  const c = inTeam(m("c00000000000001", "2026-11-29 10:02:00.000Z"));
  const onB: A = { id: "r00000000000001", targetId: b.id };
  const onA: A = { id: "r00000000000002", targetId: a.id };
  const shown = {
    messages: [a, b, c],
    annotations: new Map([
      [onB.id, onB],
      [onA.id, onA],
    ]),
    hasMore: false,
  };
  const before = { messages: new Set([a.id, b.id, c.id]), annotations: new Set([onB.id, onA.id]) };

  it("names the messages and reactions deleted meanwhile in the page's range, nothing older", () => {
    // a page of the newest two (more before it): c was deleted, and the reaction on b taken back
    const records = [b, { ...m("x00000000000001", "2026-11-29 10:03:00.000Z"), kind: "edit" }];
    expect(deletedMeanwhile("team00000000001", shown, before, { records, hasMore: true }).sort()).toEqual([c.id, onB.id].sort());
  });

  it("names nothing that arrived after the page was asked for, nor anything when all is still there", () => {
    const records = [a, b, c, { ...onB, created: b.created, kind: "reaction" }, { ...onA, created: a.created, kind: "reaction" }];
    expect(deletedMeanwhile("team00000000001", shown, before, { records, hasMore: false })).toEqual([]);
    const later = { messages: new Set([a.id, b.id]), annotations: new Set([onB.id, onA.id]) };
    expect(
      deletedMeanwhile("team00000000001", shown, later, {
        records: [a, b, { ...onB, created: b.created, kind: "reaction" }, { ...onA, created: a.created, kind: "reaction" }],
        hasMore: false,
      }),
    ).toEqual([]);
  });

  it("names nothing of another conversation still held while the page switches to this one", () => {
    // the page read is the newly open conversation's (one message, nothing more), the messages held
    // are still the conversation switched away from (all three were named before this rule)
    const records = [{ ...m("o00000000000001", "2026-11-29 10:05:00.000Z"), channelId: "other0000000001" }];
    expect(deletedMeanwhile("other0000000001", shown, before, { records, hasMore: false })).toEqual([]);
  });
});

describe("the list of one conversation", () => {
  const inChannel = (id: string, channelId: string) => ({ id, created: "2026-11-30 00:00:00.000Z", channelId });

  it("is the same list when every message is that conversation's (nothing is drawn again)", () => {
    const messages = [inChannel("a00000000000001", "team00000000001"), inChannel("b00000000000001", "team00000000001")];
    expect(ofConversation(messages, "team00000000001")).toBe(messages);
  });

  it("leaves out another conversation's messages still held while the page switches", () => {
    // the bench's browser phase saw the 200 messages of the conversation switched away from in the list
    // of the one opened (its page's update applied after the switch), and the next catch-up deleted them
    const messages = [inChannel("a00000000000001", "team00000000001"), inChannel("o00000000000001", "other0000000001")];
    expect(ofConversation(messages, "other0000000001").map((m) => m.id)).toEqual(["o00000000000001"]);
    expect(ofConversation(messages, undefined)).toEqual([]);
  });
});
