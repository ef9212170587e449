import { z } from "zod";

export const userIdSchema = z.string().regex(/^[a-z0-9]{15}$/, "A user id must be 15 lowercase letters or digits.");
export const userIdsSchema = z.array(userIdSchema).min(1).max(100);
