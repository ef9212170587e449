/**
 * "Export my data" as one .zip, built in the browser (docs/decisions/0076-export-and-group-renames.md):
 *   data.json                  the account's data as the server holds it, opened here (my-data.client.ts)
 *   conversations/<name>.txt   one readable file per conversation (conversations.client.ts)
 *   README.txt                 what is in it, and the conversations this device could not read
 */
import { strToU8, zipSync } from "fflate";
import type { ConversationExport } from "~/features/export/conversations.client";

export function readmeOf(exported: ConversationExport): string {
  const lines = [
    "ChatCrypt: your data",
    "",
    "data.json: everything this server holds about your account, opened in your browser where it is encrypted.",
    "conversations/: one file per conversation you can read, opened on your device (edited messages show their latest text).",
  ];
  if (exported.skipped.length > 0) {
    lines.push("", "Left out of this export:");
    for (const s of exported.skipped) lines.push(`- ${s.title}: ${s.reason}`);
  }
  return lines.join("\n") + "\n";
}

/** The .zip's bytes. */
export function zipExport(data: unknown, exported: ConversationExport): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "README.txt": strToU8(readmeOf(exported)),
    "data.json": strToU8(JSON.stringify(data, null, 2)),
  };
  for (const f of exported.files) files[`conversations/${f.fileName}`] = strToU8(f.text);
  return zipSync(files, { level: 6, mtime: new Date() });
}
