import { z } from "zod";

/** A device id as this browser makes it (conversation/mls/identity.client.ts): the identity is `userId:deviceId`. */
export const callTicketSchema = z.object({ device: z.string().regex(/^[a-z0-9]{8,40}$/, "Invalid device id.") }).strict();

/** A page's word that it joined or left the conversation's call; `ring` when it started it (POST /api/calls/:id/presence). */
export const callPresenceSchema = z.object({ event: z.enum(["joined", "left", "declined"]), ring: z.boolean().optional() }).strict();
