import type { ActionFunctionArgs } from "@remix-run/node";
import { sendTestMail } from "~/features/admin/admin.server";
import { emptySchema } from "~/features/admin/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/** POST /api/admin/mail/test: a test email to the administrator's own address; the SMTP server's error in words otherwise. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  await readJson(request, emptySchema);
  const result = await sendTestMail(pb);
  if (!result.sent) fail(502, `The test email could not be sent: ${result.error || "the mail server refused it"}.`);
  return jsonResponse({ message: `Test email sent to ${result.address}.` });
}
