import type { LoaderFunctionArgs } from "@remix-run/node";
import { streamProtectedFile } from "~/features/files/attachments.server";
import { fail, requireUser } from "~/server/http.server";

/** A link preview's encrypted image, for members of its channel. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  if (!/^[a-z0-9]{15}$/.test(params.id ?? "")) fail(400, "Invalid preview id.");
  return streamProtectedFile(pb, context, "link_previews", params.id!, "image");
}
