import { z } from "zod";

export const answerSchema = z.object({ answer: z.enum(["accept", "decline", "block"]) }).strict();

export const unblockSchema = z.object({ userId: z.string().regex(/^[a-z0-9]{15}$/, "userId must be a user id.") }).strict();
