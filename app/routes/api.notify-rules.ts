import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { readNotifyRules, saveNotifyRules } from "~/features/notify-rules/notify-rules.server";
import { saveNotifyRulesSchema } from "~/features/notify-rules/validation";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

/**
 * The caller's notification rules (collection notify_rules): each conversation's choice (all messages,
 * mentions and keywords, nothing) and mute, and the Do not disturb hours. In clear, because the server
 * decides with them whether to push to a closed page; keywords are not here (they stay encrypted).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse({ rules: await readNotifyRules(pb, userId) });
}

/** Replaces the caller's rules with the ones sent: `{ rules: { conversations, quiet? } }`. */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const { rules } = await readJson(request, saveNotifyRulesSchema);
  return jsonResponse({ rules: await saveNotifyRules(pb, userId, rules) });
}
