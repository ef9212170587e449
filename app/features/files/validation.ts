import { z } from "zod";
import { cipherText, recordId } from "~/lib/schemas";

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
