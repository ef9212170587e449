/**
 * Export my data (Menu > Account > Your data): one .zip built in the browser (export/archive.client.ts)
 * with everything the server holds about the user (pb_hooks/lib/account_data.js exportAccount), opened
 * here where it is encrypted (settings, contacts, key pins), the fixed list of what the server keeps in
 * clear, and the user's conversations as readable files (export/conversations.client.ts).
 */
import { api } from "~/lib/api.client";
import { downloadUrl } from "~/lib/download.client";
import type { SessionUser } from "~/lib/session-user";
import { decryptContact } from "~/features/contacts/contacts.client";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { openPin } from "~/conversation/senders/pins.client";
import { openSettings } from "~/features/settings/settings-vault.client";
import type { ServerConversation, ServerExport } from "~/features/account-data/types";
import { exportConversations } from "~/features/export/conversations.client";
import { zipExport } from "~/features/export/archive.client";

/** What the server stores in clear about a user, whatever they do (SECURITY.md, "What the server can see"). */
export const SERVER_KEEPS_IN_CLEAR = [
  "email address, and whether it is verified",
  "username",
  "public keys (ECDH and signing)",
  "when the account was created and last changed",
  "channel memberships: which channels and direct conversations, and since when",
  "channel and direct conversation names, and who created each channel",
  "for every message sent: when, in which conversation, its size, its kind (message, reply, edit, reaction, pin) and the people it mentions",
  "the size and type of every file sent",
  "whose keys you have pinned (not the keys, nor whether you verified them)",
  "which channels your keyring holds a password for (not the passwords)",
  "read positions: the time of the last message read in each conversation",
  "message requests: who asked you into which direct conversation, whose messages you accepted, who you blocked",
  "email notification choices (on or off, with or without the message text)",
  "notification choices per conversation and Do not disturb hours",
  "push subscriptions: each browser's push service address and name",
  "how many MLS key packages your devices published",
  "your message archive's size: how many messages of how many conversations your devices kept for each other (not their text)",
  "signed-in sessions and passkeys, where this server keeps them",
];

const NOT_IN_THIS_FILE = [
  "Message texts: in the conversations folder beside this file. Files and link previews: open them in each conversation.",
  "Your private keys and channel passwords: secrets, never written to this file.",
];

const isoDate = (value: unknown) => (typeof value === "string" && value ? value.replace(" ", "T") : value);

function conversationName(c: ServerConversation) {
  return c.name || c.participants.join(", ") || "Direct message";
}

/** The export, opened: settings, contacts and key pins decrypted with this browser's keys. */
export async function buildMyData(user: SessionUser, data: ServerExport) {
  const contactsKey = await vaultKey(user.id, "contacts");
  const contacts = await Promise.all(
    data.contacts.map(async (c) => {
      const opened = await decryptContact(contactsKey, user.id, { id: c.id, name: c.name, phoneNumber: c.phone_number });
      return opened
        ? { name: opened.name, phone: opened.phone, added: isoDate(c.created), updated: isoDate(c.updated) }
        : { couldNotBeOpened: true, name: c.name, phone: c.phone_number, added: isoDate(c.created) };
    }),
  );
  const keyPins = await Promise.all(
    data.key_pins.map(async (p) => {
      const pin = await openPin(user.id, { subjectId: p.subject, data: p.data });
      return pin
        ? { user: p.username, verified: pin.v, pinned: isoDate(p.created), updated: isoDate(p.updated) }
        : { user: p.username, couldNotBeOpened: true, pinned: isoDate(p.created) };
    }),
  );
  const byId = new Map(data.channels.map((c) => [c.id, c]));
  const nameOf = (id: string) => (byId.has(id) ? conversationName(byId.get(id)!) : id);
  const inKeyring = new Set(data.keyring.map((k) => k.channel));
  const { account, profile } = data;
  return {
    exported: new Date().toISOString(),
    about: "Everything this ChatCrypt server holds about your account, opened in your browser where it is encrypted.",
    account: {
      id: account.id,
      username: profile?.username ?? null,
      email: account.email,
      // the address typed at sign-up until its emailed link is opened (docs/decisions/0082-pending-email-at-sign-up.md)
      pendingEmail: account.pending_email || null,
      emailVerified: account.verified,
      created: isoDate(account.created),
      updated: isoDate(account.updated),
    },
    publicKeys: profile ? { ecdh: profile.ecdh_public_key, signing: profile.rsa_public_key } : null,
    channels: data.channels
      .filter((c) => !c.direct)
      .map((c) => ({
        name: c.name,
        id: c.id,
        sealed: c.sealed,
        createdByYou: c.created_by_you,
        created: isoDate(c.created),
        joined: isoDate(c.joined),
        messagesSent: c.messages_sent,
        passwordInKeyring: inKeyring.has(c.id),
      })),
    directMessages: data.channels
      .filter((c) => c.direct)
      .map((c) => ({
        name: conversationName(c),
        id: c.id,
        participants: c.participants,
        joined: isoDate(c.joined),
        messagesSent: c.messages_sent,
      })),
    settings: {
      ...(await openSettings(user.id, account.encrypted_settings)),
      emailNotificationsEnabled: account.email_notifications_enabled,
      emailIncludeContent: account.email_include_content,
    },
    contacts,
    keyPins,
    readPositions: data.read_positions.map((r) => ({ conversation: nameOf(r.channel), lastRead: isoDate(r.last_read) })),
    notificationRules: data.notify_rules,
    pushSubscriptions: data.push_subscriptions.map((s) => ({ device: s.device, endpoint: s.endpoint, created: isoDate(s.created) })),
    sent: { messages: data.sent.messages, files: data.sent.files, fileBytes: data.sent.file_bytes, mlsCommits: data.sent.mls_commits },
    mlsKeyPackages: data.mls_key_packages,
    messageArchive: data.message_archive,
    otherRecords: data.other,
    serverKeepsInClear: SERVER_KEEPS_IN_CLEAR,
    notInThisFile: NOT_IN_THIS_FILE,
  };
}

/**
 * Fetches and opens the export and the user's conversations, and downloads them as one .zip; answers
 * the file's name and the conversations this device could not read (left out, and named in README.txt).
 */
export async function exportMyData(
  user: SessionUser,
  progress: (done: number, total: number) => void,
): Promise<{ name: string; skipped: string[] }> {
  const { data } = await api<{ data: ServerExport }>("/api/account/export");
  const file = await buildMyData(user, data);
  const conversations = await exportConversations(user, progress);
  const name = `chatcrypt-data-${user.username || user.id}-${new Date().toISOString().slice(0, 10)}.zip`;
  const url = URL.createObjectURL(new Blob([zipExport(file, conversations) as Uint8Array<ArrayBuffer>], { type: "application/zip" }));
  downloadUrl(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { name, skipped: conversations.skipped.map((s) => s.title) };
}
