import { describe, expect, it } from "vitest";
import { decryptInviteName, decryptInvitePassword, encryptInviteName, encryptInvitePassword } from "~/crypto";
import { buildInviteLink, parseInvite } from "~/features/channels/invite";
import { dictationErrorMessage } from "~/features/dictation/errors";
import { membershipNotices } from "~/features/members/notices";

const channelId = "0b6f1e8a-4c55-4c3e-9d7e-2a1f0c9b8e11";

describe("invite links carry the channel's name, sealed", () => {
  it("round-trips the name and keeps the password readable", async () => {
    const link = buildInviteLink(
      "https://chat.example",
      channelId,
      await encryptInvitePassword(channelId, "pw-1"),
      await encryptInviteName(channelId, "Design #2"),
    );
    expect(link).not.toContain("Design");
    const invite = parseInvite(link)!;
    expect(await decryptInviteName(channelId, invite.encryptedName!)).toBe("Design #2");
    expect(await decryptInvitePassword(channelId, invite.encryptedPassword)).toBe("pw-1");
  });

  it("does not take a password for a name, nor open another channel's name", async () => {
    await expect(decryptInviteName(channelId, await encryptInvitePassword(channelId, "pw-1"))).rejects.toThrow(
      "decryptInviteName: not a name",
    );
    const other = "1b6f1e8a-4c55-4c3e-9d7e-2a1f0c9b8e11";
    await expect(decryptInviteName(other, await encryptInviteName(channelId, "x"))).rejects.toThrow("authentication failed");
  });

  it("reads older links without a name", () => {
    expect(parseInvite(`https://chat.example/?invite=${channelId}#key=abc`)).toEqual({ channelId, encryptedPassword: "abc" });
  });
});

describe("dictation errors", () => {
  it("are sentences, and silent for the codes that need none", () => {
    expect(dictationErrorMessage("audio-capture")).toBe("Dictation stopped: no microphone was found. Check that one is connected.");
    expect(dictationErrorMessage("not-allowed")).toMatch(/^Dictation stopped: the browser is not allowed to use the microphone/);
    expect(dictationErrorMessage("something-new")).toBe("Dictation stopped unexpectedly. Please try again.");
    expect(dictationErrorMessage("no-speech")).toBeNull();
    expect(dictationErrorMessage("aborted")).toBeNull();
  });
});

describe("membership notices", () => {
  const member = (userId: string, username: string) => ({ userId, username, isCreator: false, joined: "" });
  it("say who joined and who left", () => {
    const notices = membershipNotices(
      [member("a", "alice"), member("b", "bob")],
      [member("a", "alice"), member("c", "carol")],
      "2026-01-01T00:00:00Z",
    );
    expect(notices.map((n) => n.text)).toEqual(["carol joined the channel", "bob left the channel"]);
    expect(new Set(notices.map((n) => n.id)).size).toBe(2);
  });
  it("in a direct conversation say the conversation and who added the person, never the channel", () => {
    const notices = membershipNotices(
      [member("a", "alice"), member("b", "bob")],
      [member("a", "alice"), { ...member("c", "carol"), addedBy: "a" }, { ...member("d", "dave"), addedBy: "d" }],
      "2026-01-01T00:00:00Z",
      true,
    );
    expect(notices.map((n) => n.text)).toEqual([
      "carol joined the conversation, added by alice",
      "dave joined the conversation",
      "bob left the conversation",
    ]);
  });
  it("say nothing when nobody changed", () => {
    expect(membershipNotices([member("a", "alice")], [member("a", "alice")], "t")).toEqual([]);
  });
});

describe("shown file names", () => {
  it("shorten a recorded voice message and keep other names", async () => {
    const { shownName } = await import("~/conversation/files/attachments");
    expect(shownName({ name: "voice-message-2026-11-23T04-00-00.webm", kind: "audio" })).toBe("Voice message");
    expect(shownName({ name: "voice-message-notes.pdf", kind: "file" })).toBe("voice-message-notes.pdf");
    expect(shownName({ name: "interview.webm", kind: "audio" })).toBe("interview.webm");
  });
});
