// The retention requests' bodies (api.admin.retention, api.admin.retention.preview, api.channels.$id.retention): apart from
// retention.ts, which pages load, so the validation library stays out of their first load.
import { z } from "zod";
import { MAX_DAYS } from "~/features/retention/retention";

const days = z
  .number({ message: "days must be a number." })
  .int("days must be a whole number.")
  .min(0, "days must be 0 or more.")
  .max(MAX_DAYS, `days must be at most ${MAX_DAYS}.`);

export const workspaceRetentionSchema = z.object({ days, perChannel: z.boolean().optional(), keepPinned: z.boolean().optional() }).strict();
export type WorkspaceRetention = z.infer<typeof workspaceRetentionSchema>;

/** What a workspace period would delete now (the console's confirmation says how many). */
export const retentionPreviewSchema = z.object({ days, keepPinned: z.boolean().optional() }).strict();
export type RetentionPreview = z.infer<typeof retentionPreviewSchema>;

export const channelRetentionSchema = z.object({ days }).strict();
