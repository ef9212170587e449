import { z } from "zod";

/** A device id as this browser makes it (features/sealed/identity.client.ts): the identity is `userId:deviceId`. */
export const callTicketSchema = z.object({ device: z.string().regex(/^[a-z0-9]{8,40}$/, "Invalid device id.") }).strict();
