import { z } from "zod";

import { CHANNEL_ID_MESSAGE, MAX_CHANNEL_NAME, UUID_PATTERN } from "~/features/channels/limits";
import { isBlank } from "~/lib/visible";

export { CHANNEL_ID_MESSAGE, MAX_CHANNEL_NAME, UUID_PATTERN };

export const channelIdSchema = z.string().trim().toLowerCase().regex(UUID_PATTERN, CHANNEL_ID_MESSAGE);

export const createChannelFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Channel name is required.")
    .max(MAX_CHANNEL_NAME, `Channel name can be at most ${MAX_CHANNEL_NAME} characters.`)
    .refine((name) => !isBlank(name), "Channel name is required."),
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
