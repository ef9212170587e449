import type PocketBase from "pocketbase";
import { readHook } from "~/server/hooks.server";
import type { HealthStatus } from "~/features/health/health";

/** The Health section's facts (workspace owner and admins: the hook checks). */
export const readHealth = (pb: PocketBase) =>
  readHook<HealthStatus>(pb, "/api/chat/admin/health", "The server's health could not be read.");
