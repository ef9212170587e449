// The retention requests' bodies (api.admin.retention, api.channels.$id.retention): apart from
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

export const channelRetentionSchema = z.object({ days }).strict();
