import { describe, expect, it } from "vitest";
import { applyAnnotations, toAnnotation, type Annotated, type Annotation } from "~/conversation/messages/annotations";
import { decodeBody, encodeBody } from "~/conversation/messages/body";
import { mentionQuery } from "~/features/messages/MentionSuggestions";
import { whoReacted } from "~/conversation/messages/emoji";
import { continuesGroup, dayLabel, firstLine, mentions, safeHref, segments, startsDay } from "~/features/messages/text";

const msg = (id: string, senderId: string, text: string): Annotated => ({ id, senderId, text });
const note = (over: Partial<Annotation> & Pick<Annotation, "id" | "kind" | "targetId" | "senderId">): Annotation => ({
  created: "2026-01-01 10:00:00.000Z",
  own: false,
  ...over,
});

describe("message bodies", () => {
  it("carry replies, edits and reactions inside the signed payload", () => {
    expect(decodeBody(encodeBody({ text: "yes", files: [], replyTo: "abcdefghij12345" }))).toEqual({
      text: "yes",
      files: [],
      replyTo: "abcdefghij12345",
    });
    expect(decodeBody(encodeBody({ text: "new", files: [], edits: "abcdefghij12345" }))).toEqual({
      text: "new",
      files: [],
      edits: "abcdefghij12345",
    });
    expect(decodeBody(encodeBody({ text: "", files: [], reactsTo: "abcdefghij12345", reaction: "🎉" }))).toEqual({
      text: "",
      files: [],
      reactsTo: "abcdefghij12345",
      reaction: "🎉",
    });
  });

  it("carry any one emoji as a reaction, and drop anything else and ids that are not record ids", () => {
    const body = (x: unknown) => "\u0000cc1:" + JSON.stringify({ t: "", f: [], m: "abcdefghij12345", x });
    for (const emoji of ["💣", "🦫", "👍🏽", "👩‍💻", "🇫🇷", "#️⃣", "❤️"])
      expect(decodeBody(body(emoji))).toEqual({ text: "", files: [], reactsTo: "abcdefghij12345", reaction: emoji });
    for (const other of ["hello", "a", "1", "👍👍", "👍 ", "<b>", "", 1, null, "🎉".repeat(20)])
      expect(decodeBody(body(other))).toEqual({ text: "", files: [] });
    const raw = "\u0000cc1:" + JSON.stringify({ t: "", f: [], m: "abcdefghij12345", x: "💣", r: "../etc" });
    expect(decodeBody(raw)).toEqual({ text: "", files: [], reactsTo: "abcdefghij12345", reaction: "💣" });
  });
});

describe("annotations", () => {
  const record = {
    id: "edit00000000001",
    kind: "edit" as const,
    targetId: "message00000001",
    senderId: "alice0000000001",
    created: "2026-01-01 10:00:00.000Z",
  };

  it("an edit's signed body must name the message its record points at", () => {
    expect(toAnnotation(record, { text: "new", files: [], edits: "message00000001" }, false)).toMatchObject({ text: "new" });
    expect(toAnnotation(record, { text: "new", files: [], edits: "message00000002" }, false)).toBeNull();
    expect(toAnnotation(record, { text: "plain message", files: [] }, false)).toBeNull();
    expect(toAnnotation({ ...record, kind: "reaction" }, { text: "new", files: [], edits: "message00000001" }, false)).toBeNull();
  });

  it("applies only the sender's own edits, the latest winning, and marks the message edited", () => {
    const messages = [msg("message00000001", "alice0000000001", "draft")];
    const notes = new Map<string, Annotation>([
      [
        "e1",
        note({
          id: "e1",
          kind: "edit",
          targetId: "message00000001",
          senderId: "alice0000000001",
          text: "second",
          created: "2026-01-01 10:02:00.000Z",
        }),
      ],
      [
        "e2",
        note({
          id: "e2",
          kind: "edit",
          targetId: "message00000001",
          senderId: "alice0000000001",
          text: "first",
          created: "2026-01-01 10:01:00.000Z",
        }),
      ],
      [
        "e3",
        note({
          id: "e3",
          kind: "edit",
          targetId: "message00000001",
          senderId: "mallory00000001",
          text: "forged",
          created: "2026-01-01 10:03:00.000Z",
        }),
      ],
    ]);
    expect(applyAnnotations(messages, notes)[0]).toMatchObject({ text: "second", edited: true });
  });

  it("counts reactions per emoji, once per user, knows the user's own and who reacted", () => {
    const messages = [msg("message00000001", "alice0000000001", "hi")];
    const notes = new Map<string, Annotation>([
      [
        "r4",
        note({ id: "r4", kind: "reaction", targetId: "message00000001", senderId: "bob000000000001", emoji: "🎉", senderUsername: "bob" }),
      ],
      [
        "r1",
        note({ id: "r1", kind: "reaction", targetId: "message00000001", senderId: "bob000000000001", emoji: "👍", senderUsername: "bob" }),
      ],
      ["r2", note({ id: "r2", kind: "reaction", targetId: "message00000001", senderId: "carol0000000001", emoji: "👍", own: true })],
      ["r3", note({ id: "r3", kind: "reaction", targetId: "message00000001", senderId: "carol0000000001", emoji: "👍" })],
      [
        "r5",
        note({ id: "r5", kind: "reaction", targetId: "message00000001", senderId: "dave00000000001", emoji: "👍", senderUsername: "dave" }),
      ],
    ]);
    expect(applyAnnotations(messages, notes)[0].reactions).toEqual([
      { emoji: "👍", count: 3, ownId: "r2", who: ["You", "bob", "dave"] },
      { emoji: "🎉", count: 1, ownId: null, who: ["bob"] },
    ]);
    expect(whoReacted(["You", "bob", "dave"], "👍")).toBe("You, bob, dave reacted with 👍");
    const many = Array.from({ length: 12 }, (_, i) => `user${i + 1}`);
    expect(whoReacted(many, "🎉")).toBe("user1, user2, user3, user4, user5, user6, user7, user8, user9, user10 and 2 more reacted with 🎉");
  });
});

describe("how a message reads", () => {
  it("links only http(s), never javascript:", () => {
    expect(segments("see https://example.com/a). and javascript:alert(1)")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: "https://example.com/a", href: "https://example.com/a" },
      { kind: "text", text: "). and javascript:alert(1)" },
    ]);
    expect(safeHref("javascript:alert(1)")).toBeNull();
  });

  it("finds @mentions, not e-mail addresses", () => {
    expect(mentions("ping @Bob_1 now", "bob_1")).toBe(true);
    expect(mentions("write to carol@bob_1.example", "bob_1")).toBe(false);
    expect(segments("@ann hi").map((s) => s.kind)).toEqual(["mention", "text"]);
  });

  it("labels days and groups messages of one sender within five minutes", () => {
    const now = new Date("2026-05-10T12:00:00Z");
    expect(dayLabel("2026-05-10 08:00:00.000Z", now)).toBe("Today");
    expect(dayLabel("2026-05-09 08:00:00.000Z", now)).toBe("Yesterday");
    expect(dayLabel("2026-05-01 08:00:00.000Z", now)).not.toMatch(/Today|Yesterday/);
    const a = { senderId: "a", created: "2026-05-10 08:00:00.000Z" };
    expect(continuesGroup(a, { senderId: "a", created: "2026-05-10 08:04:00.000Z" })).toBe(true);
    expect(continuesGroup(a, { senderId: "a", created: "2026-05-10 08:06:00.000Z" })).toBe(false);
    expect(continuesGroup(a, { senderId: "b", created: "2026-05-10 08:01:00.000Z" })).toBe(false);
    expect(startsDay(a, { created: "2026-05-11 08:00:00.000Z" })).toBe(true);
    expect(firstLine("line one\nline two")).toBe("line one");
  });

  it("suggests members for the @name before the caret", () => {
    expect(mentionQuery("hi @al", 6)).toEqual({ start: 3, prefix: "al" });
    expect(mentionQuery("mail me@al", 10)).toBeNull();
    expect(mentionQuery("@", 1)).toEqual({ start: 0, prefix: "" });
  });
});
