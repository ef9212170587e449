import { describe, expect, it } from "vitest";
import { detailWords } from "~/features/audit/details";

// The audit log's Details column (the console said "Role changed" and "Settings changed" without a
// word of which, and "Test email sent" for a test email the mail server refused).
describe("audit log details in words", () => {
  it.each([
    ["role.changed", { from: "member", to: "admin" }, "Member to Admin"],
    [
      "settings.changed",
      { setting: "who_can_create_channels", from: "everyone", to: "admins" },
      "Who can create channels: Everyone to Admins only",
    ],
    ["settings.changed", { setting: "retention_days", from: 0, to: 30 }, "Keep messages: Forever to 30 days"],
    ["settings.changed", { setting: "file_max_mb", from: 25, to: 10 }, "Largest file: 25 MB to 10 MB"],
    ["settings.changed", { setting: "retention_keep_pinned", from: false, to: true }, "Keep pinned messages: off to on"],
    ["settings.changed", { section: "single_sign_on", settings: ["issuer", "client_id"] }, "Single sign-on: Issuer URL, Client ID"],
    [
      "settings.changed",
      { section: "single_sign_on", settings: ["name", "allowed_domains", "required"] },
      "Single sign-on: Provider name, Allowed email domains, Require single sign-on",
    ],
    ["settings.changed", { setting: "file_max_mb", from: 0, to: 10 }, "Largest file: the server's limit to 10 MB"],
    ["mail.test_sent", { sent: false }, "Not sent: the mail server refused or could not be reached"],
    ["mail.test_sent", { sent: true }, "Sent"],
    ["retention.swept", { messages: 12, files: 1, channels: 2, batches: 1 }, "12 messages, 1 file in 2 conversations"],
    [
      "retention.swept",
      { messages: 3, files: 0, channels: 1, workspace_days: 1, per_channel: false, keep_pinned: false, channel_policies: 0 },
      "3 messages, 0 files in 1 conversation (policy: 1 day)",
    ],
    [
      "retention.swept",
      { messages: 1, files: 1, channels: 1, workspace_days: 90, per_channel: true, keep_pinned: true, channel_policies: 2 },
      "1 message, 1 file in 1 conversation (policy: 90 days, pinned messages kept, 2 channels with a shorter period of their own)",
    ],
    ["account.deactivated_by_provider", { channels: 0 }, "Removed from 0 conversations"],
    ["signin.succeeded", { method: "passkey" }, "with a passkey"],
    ["signin.failed_burst", { failures: 5, minutes: 15 }, "5 failed attempts within 15 minutes"],
    ["sessions.revoked", { sessions: 1, by_admin: true }, "1 device, by an administrator"],
    ["invite.created", { channel: "c", days: 7, max_uses: 0 }, "Expires after 7 days, any number of uses"],
    ["password.reset", { keys: "new" }, "New keys (no recovery key)"],
  ])("%s %j", (action, details, words) => {
    expect(detailWords(action, details)).toBe(words);
  });

  it("names the channel an entry is about, when the log knows its name", () => {
    const revoked = { channel: "6634d637-7c52-4ebd-879f-f47294c210db", deactivated: true };
    expect(detailWords("invite.revoked", revoked, "#Ops")).toBe("#Ops, made by someone deactivated");
    expect(detailWords("invite.revoked", { channel: "c" }, "#Ops")).toBe("#Ops");
    expect(detailWords("invite.used", { channel: "c" }, "#Ops")).toBe("#Ops");
    expect(detailWords("invite.created", { channel: "c", days: 0, max_uses: 1 }, "#Ops")).toBe("#Ops: Never expires, 1 use");
    expect(detailWords("member.removed", revoked, "#Ops")).toBe("From #Ops, on deactivation");
    expect(detailWords("member.removed", { channel: "c" }, "a direct conversation")).toBe("From a direct conversation");
    expect(detailWords("channel_admin.changed", { channel: "c", admin: true }, "#Ops")).toBe("Channel admin of #Ops");
    // (a deleted channel: its id, as before)
    expect(detailWords("invite.used", { channel: "c" }, "")).toBe("channel: c");
  });

  it("reads details it has no words for as name: value, and none as nothing", () => {
    expect(detailWords("member.removed", { channel: "abc", deactivated: true })).toBe("channel: abc, deactivated: true");
    expect(detailWords("settings.changed", { setting: "something_new", from: 1, to: 2 })).toBe("setting: something_new, from: 1, to: 2");
    expect(detailWords("account.created", {})).toBe("");
    expect(detailWords("__proto__", { a: 1 })).toBe("a: 1");
    expect(detailWords("role.changed", null)).toBe("");
  });
});
