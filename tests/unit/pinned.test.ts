import { describe, expect, it } from "vitest";
import { applyAnnotations, toAnnotation, type Annotated, type Annotation } from "~/conversation/messages/annotations";
import { decodeBody, encodeBody } from "~/conversation/messages/body";

const target = "message00000001";
const pinEvent = (id: string, senderUsername: string, pinned: boolean, created: string): Annotation => ({
  id,
  kind: "pin",
  targetId: target,
  senderId: `${senderUsername}00000000`.slice(0, 15),
  created,
  own: false,
  pinned,
  senderUsername,
});

describe("pin events", () => {
  it("carry the message and whether they pin or unpin inside the signed payload", () => {
    expect(decodeBody(encodeBody({ text: "", files: [], pins: target, pinned: true }))).toEqual({
      text: "",
      files: [],
      pins: target,
      pinned: true,
    });
    expect(decodeBody(encodeBody({ text: "", files: [], pins: target, pinned: false }))).toEqual({
      text: "",
      files: [],
      pins: target,
      pinned: false,
    });
    // without a yes or no, or with an id that is not a record id, there is no pin
    expect(decodeBody("\u0000cc1:" + JSON.stringify({ t: "", f: [], p: target }))).toEqual({ text: "", files: [] });
    expect(decodeBody("\u0000cc1:" + JSON.stringify({ t: "", f: [], p: "../x", q: true }))).toEqual({ text: "", files: [] });
  });

  it("must name the very message their record points at, and be nothing else", () => {
    const record = {
      id: "pin000000000001",
      kind: "pin" as const,
      targetId: target,
      senderId: "bob000000000001",
      created: "2026-01-01 10:00:00.000Z",
    };
    expect(toAnnotation(record, { text: "", files: [], pins: target, pinned: true }, false)).toMatchObject({ pinned: true });
    expect(toAnnotation(record, { text: "", files: [], pins: "message00000002", pinned: true }, false)).toBeNull();
    expect(toAnnotation(record, { text: "", files: [], reactsTo: target, reaction: "🎉" }, false)).toBeNull();
    expect(toAnnotation({ ...record, kind: "reaction" }, { text: "", files: [], pins: target, pinned: true }, false)).toBeNull();
  });

  it("the latest event decides whether a message is pinned, and by whom", () => {
    const message: Annotated[] = [{ id: target, senderId: "alice0000000001", text: "ship it" }];
    const at = (...events: Annotation[]) => applyAnnotations(message, new Map(events.map((e) => [e.id, e])))[0].pinnedBy;
    const pinnedByBob = pinEvent("pin000000000001", "bob", true, "2026-01-01 10:00:00.000Z");
    const unpinnedByCarol = pinEvent("pin000000000002", "carol", false, "2026-01-01 10:05:00.000Z");
    const pinnedByDave = pinEvent("pin000000000003", "dave", true, "2026-01-01 10:09:00.000Z");
    expect(at(pinnedByBob)).toBe("bob");
    expect(at(pinnedByBob, unpinnedByCarol)).toBeUndefined();
    expect(at(unpinnedByCarol, pinnedByDave, pinnedByBob)).toBe("dave");
  });
});
