import { describe, expect, it } from "vitest";
import { buildInviteLink, parseInvite } from "~/features/channels/invite";
import { compareMessages, latestCreated, mergeMessages } from "~/conversation/messages/merge";

const m = (id: string, created: string, text = id) => ({ id, created, text });

describe("mergeMessages", () => {
  it("orders by creation time, then id, and keeps each id once", () => {
    const existing = [m("b", "2026-01-01 10:00:00.000Z"), m("d", "2026-01-01 10:00:02.000Z")];
    const incoming = [m("a", "2026-01-01 10:00:00.000Z"), m("d", "2026-01-01 10:00:02.000Z", "again"), m("c", "2026-01-01 10:00:01.000Z")];
    const merged = mergeMessages(existing, incoming);
    expect(merged.map((x) => x.id)).toEqual(["a", "b", "c", "d"]);
    expect(merged.find((x) => x.id === "d")?.text).toBe("again");
  });

  it("returns the same array when nothing arrives", () => {
    const existing = [m("a", "1")];
    expect(mergeMessages(existing, [])).toBe(existing);
  });

  it("reports the newest timestamp for catch-up", () => {
    expect(latestCreated([])).toBeUndefined();
    expect(latestCreated([m("a", "1"), m("b", "2")])).toBe("2");
    expect(compareMessages(m("a", "1"), m("a", "1"))).toBe(0);
  });
});

describe("invite links", () => {
  const id = "123e4567-e89b-42d3-a456-426614174000";

  it("puts the secret in the fragment and reads it back", () => {
    const link = buildInviteLink("https://chat.example", id, "sec+ret/=");
    expect(link).toBe(`https://chat.example/?invite=${id}#key=sec%2Bret%2F%3D`);
    expect(new URL(link).search).not.toContain("sec");
    expect(parseInvite(link)).toEqual({ channelId: id, encryptedPassword: "sec+ret/=" });
  });

  it("accepts the query form of the spec", () => {
    expect(parseInvite(`https://chat.example/?invite=${id.toUpperCase()}&key=abc`)).toEqual({ channelId: id, encryptedPassword: "abc" });
  });

  it("ignores incomplete or malformed invites", () => {
    expect(parseInvite(`https://chat.example/?invite=${id}`)).toBeNull();
    expect(parseInvite("https://chat.example/?invite=not-a-uuid#key=abc")).toBeNull();
    expect(parseInvite("https://chat.example/#key=abc")).toBeNull();
    expect(parseInvite("not a url")).toBeNull();
  });
});

describe("mergeMessages with combine", () => {
  it("lets the caller keep what either copy has", () => {
    const withParts = [{ id: "a", created: "1", parts: ["x"] }];
    const bare = [{ id: "a", created: "1", parts: [] as string[] }];
    const merged = mergeMessages(withParts, bare, (current, next) => ({ ...next, parts: [...new Set([...current.parts, ...next.parts])] }));
    expect(merged).toEqual([{ id: "a", created: "1", parts: ["x"] }]);
  });

  it("unionById keeps each id once, later wins", async () => {
    const { unionById } = await import("~/conversation/messages/merge");
    expect(
      unionById(
        [{ id: "1", v: 1 }],
        [
          { id: "1", v: 2 },
          { id: "2", v: 3 },
        ],
      ),
    ).toEqual([
      { id: "1", v: 2 },
      { id: "2", v: 3 },
    ]);
  });
});

describe("link preview URLs", () => {
  it("finds the first URL and never sends a fragment or an invite link to the server", async () => {
    const { firstUrl, previewableUrl } = await import("~/conversation/link-previews/link");
    expect(firstUrl("see https://example.com/a?b=1#frag, then http://x.test")).toBe("https://example.com/a?b=1#frag");
    expect(previewableUrl("https://example.com/a?b=1#secret-key", "https://chat.test")).toBe("https://example.com/a?b=1");
    expect(previewableUrl("https://chat.test/?invite=123e4567-e89b-42d3-a456-426614174000#key=abc", "https://chat.test")).toBeNull();
    expect(previewableUrl("https://other.test/?invite=x&key=y", "https://chat.test")).toBeNull();
    expect(previewableUrl("javascript:alert(1)", "https://chat.test")).toBeNull();
    expect(firstUrl("no links here")).toBeNull();
  });
});
