import type PocketBase from "pocketbase";
import { z } from "zod";
import { callHook } from "~/server/hooks.server";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";

/**
 * The page's side of the message archive (ADR 0048, pb_hooks/archive.pb.js): the caller's entries of one
 * conversation, a page at a time (`gift`: kept for them by the message's sender, ADR 0099), and new
 * ones (with `for`: the caller's own messages kept for another member), each call made with the
 * caller's token (PocketBase's owner-only rule and the hook's membership check decide).
 */
export const ARCHIVE_PAGE = 500;

export const archiveSchema = z
  .object({
    entries: z
      .array(
        z
          .object({
            messageId: z.string().regex(/^[a-z0-9]{15}$/, "messageId must be a message id."),
            data: z
              .string()
              .min(1)
              .max(140_000)
              .regex(/^[A-Za-z0-9_-]+$/, "data must be ciphertext in base64url."),
          })
          .strict(),
      )
      .min(1)
      .max(100),
    /** Another member of a direct conversation, for whom the caller keeps their own messages (ADR 0099). */
    for: z
      .string()
      .regex(/^[a-z0-9]{15}$/, "for must be a user id.")
      .optional(),
  })
  .strict();

/** One page (from 1) of the caller's archive of a conversation, oldest first. */
export async function archivePage(pb: PocketBase, userId: string, channelId: string, page: number) {
  try {
    const list = await pb.collection("message_archive").getList<{ message: string; data: string; gift: boolean }>(page, ARCHIVE_PAGE, {
      filter: pb.filter("owner = {:owner} && channel = {:channel}", { owner: userId, channel: channelId }),
      sort: "created,id",
      fields: "message,data,gift",
      skipTotal: true,
    });
    return {
      entries: list.items.map((e) => ({ messageId: e.message, data: e.data, ...(e.gift ? { gift: true } : {}) })),
      hasMore: list.items.length === ARCHIVE_PAGE,
    };
  } catch (error) {
    failOnOutage(error);
    fail(502, "The archive could not be read.");
  }
}

export const archiveEntries = (pb: PocketBase, channelId: string, body: z.infer<typeof archiveSchema>) =>
  callHook<{ stored: number }>(
    pb,
    "/api/chat/archive",
    {
      channel_id: channelId,
      entries: body.entries.map((e) => ({ message_id: e.messageId, data: e.data })),
      ...(body.for ? { for: body.for } : {}),
    },
    "The archive could not be saved.",
  );
