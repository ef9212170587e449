import { z } from "zod";
import { cipherText, recordId } from "~/lib/schemas";

/** A link preview's sealed fields (api.channels.$id.previews), and the link a preview is asked for (api.link-preview). */
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
