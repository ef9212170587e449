import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { BodyTooLargeError, declaresMoreThan, limitedBody } from "./body.server";
import { fail } from "./http.server";

/** Parses a multipart upload held in memory; every problem is a 4xx with a readable message. */
export async function readMultipart(request: Request, maxFileBytes: number, limitText: string): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) fail(400, "Upload must be multipart/form-data.");
  const maxBodyBytes = maxFileBytes + 64 * 1024;
  if (declaresMoreThan(request, maxBodyBytes)) fail(413, limitText);
  // The whole body is bounded while it streams (chunked too), not only each part.
  const bounded = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: limitedBody(request, maxBodyBytes),
    duplex: "half",
  } as RequestInit);
  try {
    return await unstable_parseMultipartFormData(bounded, unstable_createMemoryUploadHandler({ maxPartSize: maxFileBytes }));
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError || error instanceof BodyTooLargeError) fail(413, limitText);
    fail(400, "Malformed upload.");
  }
}

export function fileField(form: FormData, name: string): File {
  const value = form.get(name);
  if (!(value instanceof Blob)) fail(400, `Missing file field "${name}".`);
  return value as File;
}
