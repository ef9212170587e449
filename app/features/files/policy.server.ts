import type PocketBase from "pocketbase";
import { FILE_TYPES, type FilePolicy, type FileTypes } from "~/features/files/policy";
import type { FilePolicyChange } from "~/features/files/validation";
import { WORKSPACE_SETTINGS_ID } from "~/features/roles/workspace-settings.server";
import { env } from "~/server/env.server";
import { fail } from "~/server/http.server";
import { callHook } from "~/server/hooks.server";
import { failOnOutage } from "~/server/outage.server";

/** The server's hard cap in MB (UPLOAD_MAX_MB): no workspace limit goes past it. */
export const capMb = () => env().UPLOAD_MAX_MB;

/** The workspace's policy as every signed-in person may read it (the defaults when unreadable). */
export async function readFilePolicy(pb: PocketBase): Promise<FilePolicy> {
  const cap = capMb();
  try {
    const row = await pb
      .collection("workspace_settings")
      .getOne<{ file_types?: string; file_max_mb?: number }>(WORKSPACE_SETTINGS_ID, { fields: "file_types,file_max_mb" });
    const types = (FILE_TYPES as readonly string[]).includes(row.file_types ?? "") ? (row.file_types as FileTypes) : "standard";
    const maxMb = row.file_max_mb && row.file_max_mb > 0 ? Math.min(row.file_max_mb, cap) : cap;
    return { types, maxMb, capMb: cap };
  } catch (error) {
    failOnOutage(error);
    return { types: "standard", maxMb: cap, capMb: cap };
  }
}

/** An administrator's change (pb_hooks/file_policy.pb.js checks who); a limit past this server's cap is a 400. */
export async function saveFilePolicy(pb: PocketBase, value: FilePolicyChange): Promise<FilePolicy> {
  const cap = capMb();
  if (value.maxMb > cap) fail(400, `The size limit can be at most ${cap} MB on this server.`);
  const saved = await callHook<{ types: FileTypes; max_mb: number }>(
    pb,
    "/api/chat/admin/files",
    { types: value.types, max_mb: value.maxMb },
    "The file settings could not be saved. Please try again.",
  );
  return { types: saved.types, maxMb: saved.max_mb, capMb: cap };
}
