import { channelIdSchema } from "~/features/channels/validation";
import { fail } from "~/server/http.server";

export function channelIdParam(params: Record<string, string | undefined>): string {
  const parsed = channelIdSchema.safeParse(params.id ?? "");
  if (!parsed.success) fail(400, parsed.error.issues[0]?.message ?? "Invalid channel id.");
  return parsed.data;
}
