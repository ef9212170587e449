import { describe, expect, it } from "vitest";
import { buildInviteLink, parseInvite } from "~/chat/invite";
import { compareMessages, latestCreated, mergeMessages } from "~/chat/merge";

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
