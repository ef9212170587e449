import { z } from "zod";

import { CHANNEL_ID_MESSAGE, MAX_CHANNEL_NAME, UUID_PATTERN } from "~/features/channels/limits";

export { CHANNEL_ID_MESSAGE, MAX_CHANNEL_NAME, UUID_PATTERN };
// Envelope of a 16,000-character message: base64 of up to 64 KB of UTF-8 plus IV and signature.
export const MAX_ENVELOPE_CHARS = 100_000;

export const channelIdSchema = z.string().trim().toLowerCase().regex(UUID_PATTERN, CHANNEL_ID_MESSAGE);

export const createChannelFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Channel name is required.")
    .max(MAX_CHANNEL_NAME, `Channel name can be at most ${MAX_CHANNEL_NAME} characters.`),
  password: z.string().min(1, "Password is required."),
  sealed: z.boolean().default(false),
});

export const joinChannelFormSchema = z.object({
  channelId: z.string().trim().min(1, "Channel ID is required.").pipe(channelIdSchema),
  password: z.string().min(1, "Password is required."),
});

const verifier = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid join verifier.");
const publicKey = z.string().min(40).max(1000);

export const createChannelRequestSchema = z.object({
  id: channelIdSchema,
  name: createChannelFormSchema.shape.name,
  verifier,
  ecdhPublicKey: publicKey,
  kdfIterations: z.number().int().min(100_000).max(10_000_000),
  sealed: z.boolean().default(false),
});

export const joinChannelRequestSchema = z.object({
  channelId: channelIdSchema,
  verifier,
  ecdhPublicKey: publicKey,
  /** The invite the join goes through (docs/decisions/0057-invites-and-bans.md); absent for a join by id and password. */
  inviteId: z
    .string()
    .regex(/^[a-z0-9]{15}$/, "Invalid invite id.")
    .optional(),
});

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

const recordId = z.string().regex(/^[a-z0-9]{15}$/, "Invalid message id.");

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

const cipherText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "Encrypted fields must be base64url.");

export const attachmentFieldsSchema = z.object({
  messageId: recordId,
  fileName: cipherText(4000).min(1, "Missing file name."),
  fileSize: z.coerce.number().int().min(0),
  fileType: z
    .string()
    .max(200)
    .regex(/^([\w.+-]+\/[\w.+-]+)?$/, "Invalid file type."),
  storagePath: z.string().max(300),
});

export const previewFieldsSchema = z.object({
  messageId: recordId,
  url: cipherText(20000).min(1),
  title: cipherText(20000),
  description: cipherText(20000),
  imageUrl: cipherText(20000),
});

export const linkPreviewRequestSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .regex(/^https?:\/\//i, "Only http and https links get previews."),
});
