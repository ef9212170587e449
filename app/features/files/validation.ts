import { z } from "zod";
import { cipherText, recordId } from "~/lib/schemas";
import { FILE_TYPES } from "~/features/files/policy";

/** The fields of an attachment's record (api.channels.$id.attachments): its name sealed, its place in storage. */
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

/** The console's file settings (api.admin.files). */
export const filePolicySchema = z
  .object({
    types: z.enum(FILE_TYPES, { message: 'types must be "standard", "office" or "any".' }),
    maxMb: z.number({ message: "maxMb must be a number." }).int("maxMb must be a whole number of MB.").min(1, "maxMb must be at least 1."),
  })
  .strict();
export type FilePolicyChange = z.infer<typeof filePolicySchema>;
