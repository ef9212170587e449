import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { fail } from "./http.server";

/** Parses a multipart upload held in memory; every problem is a 4xx with a readable message. */
export async function readMultipart(request: Request, maxFileBytes: number, limitText: string): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) fail(400, "Upload must be multipart/form-data.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxFileBytes + 64 * 1024) fail(413, limitText);
  try {
    return await unstable_parseMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize: maxFileBytes }));
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) fail(413, limitText);
    fail(400, "Malformed upload.");
  }
}

export function fileField(form: FormData, name: string): File {
  const value = form.get(name);
  if (!(value instanceof Blob)) fail(400, `Missing file field "${name}".`);
  return value as File;
}
