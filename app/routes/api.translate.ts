import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { isTargetLanguageCode } from "~/features/translation/languages";
import { callHook } from "~/server/hooks.server";
import { jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

const schema = z.object({
  text: z.array(z.string().max(5000)).min(1).max(50),
  targetLang: z.string().refine(isTargetLanguageCode, "Unknown language."),
});

/** The spec's translate-text, through our own server function (the text goes to the operator's engine only). */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, schema);
  const result = await callHook<{ translations: { text: string }[] }>(
    pb,
    "/api/chat/translate",
    { text: body.text, target_lang: body.targetLang },
    "Translation service unavailable",
  );
  return jsonResponse({ translations: result.translations.map((t) => t.text) });
}
