import { z } from "zod";
import { UUID_PATTERN } from "~/features/channels/limits";
import { recordId } from "~/lib/schemas";

// What a message send and a page of history may ask (api.channels.$id.messages).

// Envelope of a 16,000-character message: base64 of up to 64 KB of UTF-8 plus IV and signature.
export const MAX_ENVELOPE_CHARS = 100_000;

export const postMessageRequestSchema = z
  .object({
    encryptedContent: z.string().min(1).max(MAX_ENVELOPE_CHARS, "Message is too long."),
    senderPublicKey: z.string().max(1000).default(""),
    /** An edit of, or a reaction to, the message `targetId`; absent for a message. */
    kind: z.enum(["edit", "reaction", "pin", "reply"]).optional(),
    targetId: z
      .string()
      .regex(/^[a-z0-9]{15}$/, "Invalid message id.")
      .optional(),
    /** A reply in a thread: the thread's root. */
    thread: z
      .string()
      .regex(/^[a-z0-9]{15}$/, "Invalid thread id.")
      .optional(),
    // The page's own id for this send (a UUID): a retry with the same id is stored only once.
    clientId: z.string().regex(UUID_PATTERN, "clientId must be a lowercase UUID.").optional(),
    /** A sealed channel's message: the MLS epoch it is encrypted for. */
    epoch: z.number().int().min(0).max(1_000_000_000).optional(),
    /** The members the text mentions (the server cannot read it): whom a push may tell. */
    mentions: z
      .array(z.string().regex(/^[a-z0-9]{15}$/, "Invalid user id."))
      .max(50, "At most 50 mentions.")
      .optional(),
  })
  .refine(
    (body) => (body.kind === undefined || body.kind === "reply") === (body.targetId === undefined),
    "An edit, a reaction or a pin names its message.",
  )
  .refine((body) => body.kind !== "reply" || body.thread !== undefined, "A reply in a thread names its thread.");

export const messagePageSchema = z
  .object({
    before: z.string().max(40).optional(),
    /** With `before`: of the messages created at that very time, only those below this id (several share a millisecond). */
    beforeId: recordId.optional(),
    after: z.string().max(40).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(200),
    /** "1": the answer also carries the channel's number of messages (the search backfill's progress). */
    count: z.enum(["1"]).optional(),
    /** A sealed channel's messages of one MLS epoch, oldest first (with `page` for the next ones). */
    epoch: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
    page: z.coerce.number().int().min(1).max(10_000).optional(),
    /** The page around one message (a jump to it), not with `before` or `after`. */
    around: recordId.optional(),
    /** "1": a page of history also carries its senders' public profiles (a conversation's first page). */
    profiles: z.enum(["1"]).optional(),
  })
  .refine((page) => !page.around || (!page.before && !page.after && page.epoch === undefined), "A page around a message stands alone.")
  .refine((page) => !page.beforeId || page.before, "beforeId goes with before.");
