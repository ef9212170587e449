import { z } from "zod";
import { ROLES } from "~/features/roles/roles";
import { WHO_CAN_CREATE } from "~/features/admin/types";

export const roleChangeSchema = z
  .object({
    role: z.enum(ROLES, { message: "role must be owner, admin, member or guest." }),
    // the role the console showed (a 409 when another administrator changed it meanwhile)
    from: z.enum(ROLES, { message: "from must be owner, admin, member or guest." }).optional(),
  })
  .strict();

export const settingsSchema = z
  .object({ whoCanCreateChannels: z.enum(WHO_CAN_CREATE, { message: 'whoCanCreateChannels must be "everyone" or "admins".' }) })
  .strict();

export const emptySchema = z.object({}).strict();

/** A user id in a path: anything else is nobody. */
export const isUserId = (id: string | undefined): id is string => /^[a-z0-9]{15}$/.test(id ?? "");

/** The longest search the People section sends. */
export const MAX_SEARCH = 100;
