// What an audit log entry's details say, in words (the console's Details column): which role, which
// setting from what to what, how many messages a retention sweep deleted, whether a test email went.
// The export keeps the details as they were written; an unknown detail reads as "name: value".
import { roleName } from "~/features/roles/roles";
import { periodLabel } from "~/features/retention/retention";

type Details = Record<string, unknown>;

const SETTINGS: Record<string, { name: string; value: (v: unknown) => string }> = {
  who_can_create_channels: { name: "Who can create channels", value: (v) => (v === "admins" ? "Admins only" : "Everyone") },
  retention_days: { name: "Keep messages", value: (v) => periodLabel(Number(v)) },
  channel_retention_days: {
    name: "This channel keeps messages",
    value: (v) => (Number(v) > 0 ? periodLabel(Number(v)) : "as the workspace"),
  },
  retention_per_channel: { name: "Channel admins may keep messages for a shorter time", value: (v) => (v ? "on" : "off") },
  retention_keep_pinned: { name: "Keep pinned messages", value: (v) => (v ? "on" : "off") },
  file_types: {
    name: "Files people can send",
    value: (v) => (v === "any" ? "any type" : v === "office" ? "with office documents" : "images, .pdf, .txt and .zip"),
  },
  // (0: none set, the server's own limit applies)
  file_max_mb: { name: "Largest file", value: (v) => (Number(v) > 0 ? `${String(v)} MB` : "the server's limit") },
};

/** The single sign-on settings by the console's labels. */
const SSO_SETTINGS: Record<string, string> = {
  issuer: "Issuer URL",
  client_id: "Client ID",
  client_secret: "Client secret",
  name: "Provider name",
  username_claim: "Username claim",
  allowed_domains: "Allowed email domains",
  required: "Require single sign-on",
};

const count = (n: unknown, one: string, many: string) => `${Number(n)} ${Number(n) === 1 ? one : many}`;

const SIGN_IN: Record<string, string> = { password: "with the password", passkey: "with a passkey", sso: "with single sign-on" };

/** The policy a sweep applied (its entry says which, issue 44): " (policy: 30 days, pinned messages kept)". */
function sweptUnder(d: Details): string {
  if (typeof d.workspace_days !== "number") return "";
  const policy = [periodLabel(d.workspace_days)];
  if (d.keep_pinned === true) policy.push("pinned messages kept");
  if (Number(d.channel_policies) > 0) policy.push(`${count(d.channel_policies, "channel", "channels")} with a shorter period of their own`);
  return ` (policy: ${policy.join(", ")})`;
}

/** A deactivation's (by an administrator or by the identity provider): "Removed from 2 conversations". */
const removedFrom = (d: Details) => `Removed from ${count(d.channels, "conversation", "conversations")}`;

/** Words for each action's details; null: the generic "name: value" list. */
const WORDS: Record<string, (d: Details) => string | null> = {
  "role.changed": (d) => `${roleName(String(d.from))} to ${roleName(String(d.to))}`,
  "settings.changed": (d) => {
    if (d.section === "single_sign_on")
      return `Single sign-on: ${Array.isArray(d.settings) ? d.settings.map((name) => SSO_SETTINGS[String(name)] ?? String(name)).join(", ") : ""}`;
    const setting = typeof d.setting === "string" ? SETTINGS[d.setting] : undefined;
    return setting ? `${setting.name}: ${setting.value(d.from)} to ${setting.value(d.to)}` : null;
  },
  "retention.swept": (d) =>
    `${count(d.messages, "message", "messages")}, ${count(d.files, "file", "files")} in ${count(d.channels, "conversation", "conversations")}${sweptUnder(d)}`,
  "mail.test_sent": (d) => (d.sent === false ? "Not sent: the mail server refused or could not be reached" : "Sent"),
  "signin.succeeded": (d) => (typeof d.method === "string" ? (SIGN_IN[d.method] ?? null) : ""),
  "signin.failed_burst": (d) => `${count(d.failures, "failed attempt", "failed attempts")} within ${count(d.minutes, "minute", "minutes")}`,
  "sessions.revoked": (d) => `${count(d.sessions, "device", "devices")}${d.by_admin ? ", by an administrator" : ""}`,
  "account.deactivated": removedFrom,
  "account.deactivated_by_provider": removedFrom,
  "channel.created": (d) => (d.direct ? "A direct conversation" : d.sealed ? "Sealed" : "Classic"),
  "password.reset": (d) => (d.keys === "new" ? "New keys (no recovery key)" : "Keys kept"),
  "invite.created": (d) =>
    `${d.days ? `Expires after ${count(d.days, "day", "days")}` : "Never expires"}, ${d.max_uses ? count(d.max_uses, "use", "uses") : "any number of uses"}`,
  "channel.password_changed": (d) =>
    `${count(d.members, "member", "members")} given the new key, ${count(d.invites_revoked, "invite", "invites")} revoked`,
  "sso.linked": (d) => (typeof d.issuer === "string" ? d.issuer : null),
};

/** Words for entries about one channel (`channel` in their details), which name it. */
const IN_CHANNEL: Record<string, (channel: string, d: Details) => string> = {
  "invite.created": (channel, d) => `${channel}: ${WORDS["invite.created"](d)}`,
  "invite.used": (channel) => channel,
  "invite.revoked": (channel, d) => (d.deactivated ? `${channel}, made by someone deactivated` : channel),
  "member.removed": (channel, d) => (d.deactivated ? `From ${channel}, on deactivation` : `From ${channel}`),
  "ban.lifted": (channel) => channel,
  "channel_admin.changed": (channel, d) => (d.admin ? `Channel admin of ${channel}` : `No longer channel admin of ${channel}`),
};

/** The generic reading: "name: value" for each detail, the ids of records left out of nothing. */
function listed(details: Details): string {
  return Object.entries(details)
    .map(([name, value]) => `${name.replaceAll("_", " ")}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`)
    .join(", ");
}

/** An entry's details in words ("" when it has none); `channel`: the name of the channel they are about, when known. */
export function detailWords(action: string, details: Details | null | undefined, channel = ""): string {
  if (!details || typeof details !== "object" || Object.keys(details).length === 0) return "";
  if (channel && typeof details.channel === "string" && Object.hasOwn(IN_CHANNEL, action)) return IN_CHANNEL[action](channel, details);
  const words = Object.hasOwn(WORDS, action) ? WORDS[action](details) : null;
  return words ?? listed(details);
}
