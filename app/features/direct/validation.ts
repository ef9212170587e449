import { z } from "zod";
import { channelIdSchema } from "~/features/channels/validation";
import { MAX_PARTICIPANTS } from "~/features/direct/types";

const userId = z.string().regex(/^[a-z0-9]{15}$/, "Participants must be user ids.");
const participants = z
  .array(userId)
  .min(1, "Choose at least one person.")
  .max(MAX_PARTICIPANTS - 1, `A conversation has at most ${MAX_PARTICIPANTS} people.`);

export const createDirectSchema = z
  .object({
    id: channelIdSchema,
    participants,
  })
  .strict();

/** A group's name sealed for the group's current epoch (names.ts): the server never sees it in clear. */
export const sealedNameSchema = z
  .object({
    epoch: z.number().int().min(0).max(9_999_999_999),
    sealed: z
      .string()
      .max(1000)
      .regex(/^\d{1,10}\.[A-Za-z0-9_-]{16,}$/, "sealed must be a name sealed for that epoch."),
    /** The name carried on to a new epoch (kept only while none is sealed for it yet), not a rename. */
    carry: z.boolean().optional(),
  })
  .strict();

export const addPeopleSchema = z.object({ participants }).strict();

export const lookupSchema = z
  .object({
    username: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{3,32}$/, "Username must be 3-32 letters, digits, _ . or -."),
  })
  .strict();
