import type { LoaderFunctionArgs } from "@remix-run/node";
import { streamProtectedFile } from "~/features/files/attachments.server";
import { fail, requireUser } from "~/server/http.server";

/** Downloads an attachment's ciphertext for a member of its channel; the browser decrypts it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  if (!/^[a-z0-9]{15}$/.test(params.id ?? "")) fail(400, "Invalid attachment id.");
  return streamProtectedFile(pb, context, "file_attachments", params.id!, "file");
}
