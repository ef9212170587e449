import type PocketBase from "pocketbase";
import { isAdminRole } from "~/features/roles/roles";
import { failOnOutage } from "~/server/outage.server";

/** The single row of workspace settings (pb_migrations/1795367200_workspace_settings.js). */
export const WORKSPACE_SETTINGS_ID = "workspace000001";

export type WhoCanCreateChannels = "everyone" | "admins";

/** Who may create channels, as every signed-in person may read it: "everyone" when unreadable (the default). */
export async function whoCanCreateChannels(pb: PocketBase): Promise<WhoCanCreateChannels> {
  try {
    const row = await pb.collection("workspace_settings").getOne<{ who_can_create_channels?: string }>(WORKSPACE_SETTINGS_ID);
    return row.who_can_create_channels === "admins" ? "admins" : "everyone";
  } catch (error) {
    failOnOutage(error);
    return "everyone";
  }
}

/** What the page shows (the hook decides: pb_hooks/lib/workspace.js requireCanCreateChannel). */
export const mayCreateChannels = (role: string, who: WhoCanCreateChannels) => role !== "guest" && (who === "everyone" || isAdminRole(role));
