/**
 * "Export my data"'s conversations (docs/decisions/0076-export-and-group-renames.md): every
 * conversation the user can read, each read page by page from the server and opened on this device
 * with the paths the conversation itself uses (decryptRecords, applyAnnotations), then written as the
 * text of Save Chat (export.ts). Nothing opened here is sent anywhere: the requests are the reads.
 */
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { listChannels } from "~/features/channels/channels.client";
import { knownName, loadNames } from "~/features/direct/names.client";
import { applyAnnotations, type Annotation } from "~/conversation/messages/annotations";
import { fetchMessages } from "~/features/messages/messages.client";
import { fetchThread } from "~/features/threads/fetch.client";
import { decryptRecords } from "~/conversation/messages/open.client";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { compareMessages } from "~/conversation/messages/merge";
import { exportFileName, formatExport, type ExportOptions } from "~/features/export/export";

const PAGE_SIZE = 200;

export interface ConversationFile {
  /** The name shown in the list ("#general" for a channel, the people or the group's name for a direct one). */
  title: string;
  fileName: string;
  text: string;
}

export interface ConversationExport {
  files: ConversationFile[];
  /** The conversations left out, each with why ("could not be read on this device"). */
  skipped: { title: string; reason: string }[];
}

/**
 * Every record of the conversation (messages, edits, reactions), oldest first, page by page, and the
 * replies that stay in threads with theirs (a thread's own read: a page of the conversation holds only
 * its roots).
 */
export async function allRecords(channelId: string): Promise<EncryptedMessage[]> {
  const records = new Map<string, EncryptedMessage>();
  const roots = new Set<string>();
  let page = await fetchMessages(channelId, { limit: PAGE_SIZE, profiles: true });
  for (;;) {
    for (const m of page.messages) records.set(m.id, m);
    for (const thread of page.threads ?? []) roots.add(thread.root);
    if (!page.hasMore || page.messages.length === 0) break;
    const oldest = [...page.messages].sort(compareMessages)[0];
    page = await fetchMessages(channelId, { before: oldest.created, beforeId: oldest.id, limit: PAGE_SIZE });
  }
  for (const root of roots) {
    // (a thread whose root went meanwhile has nothing left to export)
    const thread = await fetchThread(channelId, root).catch(() => null);
    for (const m of thread?.messages ?? []) records.set(m.id, m);
  }
  return [...records.values()].sort(compareMessages);
}

const titleOf = (c: Channel) => (c.direct ? c.name : `#${c.name}`);

/**
 * One whole conversation as text (every page the server holds, as this device opens it, edits applied);
 * null when it has messages of which this device could open none. Save Chat uses it too.
 */
export async function conversationText(
  user: SessionUser,
  channel: Channel,
  now: Date,
  options: Omit<ExportOptions, "direct"> = {},
): Promise<string | null> {
  const records = await allRecords(channel.id);
  const { messages, annotations } = await decryptRecords(user, channel, records);
  if (records.length > 0 && messages.length === 0 && annotations.length === 0) return null;
  const edited = applyAnnotations(messages, new Map<string, Annotation>(annotations.map((a) => [a.id, a])));
  return formatExport(
    channel.name,
    edited.map((m) => ({
      created: m.created,
      sender: m.senderUsername,
      text: m.text,
      attachments: m.attachments.map((a) => a.name),
      inThread: Boolean(m.thread && m.threadOnly),
    })),
    now,
    { ...options, direct: channel.direct },
  );
}

const exportOne = (user: SessionUser, channel: Channel, now: Date) =>
  conversationText(user, channel, now, { fileLine: (name) => `(file: ${name})` });

/** A file name not used yet in the export ("general-2026-11-29.txt", then "general-2026-11-29 (2).txt"). */
function uniqueName(name: string, used: Set<string>) {
  let candidate = name;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = name.replace(/\.txt$/u, ` (${n}).txt`);
  used.add(candidate.toLowerCase());
  return candidate;
}

/** Reads and opens every conversation of the user, telling `progress` before each one (1-based). */
export async function exportConversations(
  user: SessionUser,
  progress: (done: number, total: number) => void,
  now = new Date(),
): Promise<ConversationExport> {
  const channels = await listChannels();
  const groups = channels.filter((c) => c.direct && !c.oneToOne).map((c) => c.id);
  await loadNames(user.id, groups).catch(() => undefined);
  const named = channels.map((c) => (c.direct && !c.oneToOne ? { ...c, name: knownName(user.id, c.id) ?? c.name } : c));
  const result: ConversationExport = { files: [], skipped: [] };
  const used = new Set<string>();
  for (const [i, channel] of named.entries()) {
    progress(i + 1, named.length);
    const title = titleOf(channel);
    const text = await exportOne(user, channel, now).catch((error: unknown) => {
      console.warn("A conversation could not be exported", error);
      return null;
    });
    if (text === null) result.skipped.push({ title, reason: "could not be read on this device" });
    else result.files.push({ title, fileName: uniqueName(exportFileName(title.replace(/^#/u, ""), now), used), text });
  }
  return result;
}
