import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import { env } from "~/server/env.server";
import { fail } from "~/server/http.server";
import { failOnOutage, UNREACHABLE_MESSAGE } from "~/server/outage.server";
import { forwardedFor } from "~/server/client-address.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import { pbFetch } from "~/server/pb-fetch.server";
import type { ActivityEntry, AuditPage } from "~/features/audit/types";

// The web side of the audit log (docs/decisions/0054-audit-log.md): each call goes to its PocketBase
// route (pb_hooks/audit.pb.js) as the caller, which checks the caller's role itself.

const QUERY = {
  page: /^[1-9][0-9]{0,5}$/,
  perPage: /^[1-9][0-9]{0,2}$/,
  upto: /^[1-9][0-9]{0,11}$/,
  person: /^[a-z0-9]{15}$/,
  action: /^[a-z0-9_.]{1,60}$/,
  since: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/,
  until: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/,
};

/** The console's query parameters, checked before they reach PocketBase (400 for anything else). */
export function auditQuery(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    // (own names only: "constructor" or "toString" is no parameter)
    const pattern = Object.hasOwn(QUERY, name) ? QUERY[name as keyof typeof QUERY] : undefined;
    if (!pattern) fail(400, `Unknown parameter: ${name.slice(0, 40)}.`);
    if (!pattern.test(value)) fail(400, `${name} is malformed.`);
    query[name] = value;
  }
  return query;
}

function refused(error: unknown, failure: string): never {
  failOnOutage(error);
  const status = pbStatus(error);
  if (status === 401) fail(401, "Not authenticated");
  fail(status >= 400 && status < 500 ? status : 502, (status >= 400 && status < 500 && pbErrorMessage(error)) || failure);
}

/** One page of the log, newest first, with the chain's verdict (owner and admins). */
export async function auditPage(pb: PocketBase, query: Record<string, string>): Promise<AuditPage> {
  try {
    return await pb.send<AuditPage>("/api/chat/admin/audit", { method: "GET", query });
  } catch (error) {
    return refused(error, "The audit log could not be loaded. Please try again.");
  }
}

/** The caller's own latest entries (Menu > Account > Account activity). */
export async function accountActivity(pb: PocketBase): Promise<ActivityEntry[]> {
  try {
    return (await pb.send<{ items: ActivityEntry[] }>("/api/chat/account/activity", { method: "GET" })).items;
  } catch (error) {
    return refused(error, "Your account activity could not be loaded. Please try again.");
  }
}

/** The whole log as JSON Lines, passed on as PocketBase answers it (owner and admins). */
export async function auditExport(token: string, context: AppLoadContext): Promise<Response> {
  let answer: Awaited<ReturnType<typeof pbFetch>>;
  try {
    answer = await pbFetch(`${env().PB_URL.replace(/\/+$/, "")}/api/chat/admin/audit/export`, {
      headers: { Authorization: token, ...forwardedFor(context.clientIp) },
    });
  } catch {
    fail(503, UNREACHABLE_MESSAGE);
  }
  if (answer.status !== 200) {
    let message = "";
    try {
      message = ((await answer.json()) as { message?: string }).message ?? "";
    } catch {
      // no JSON: the fallback below
    }
    if (answer.status === 401) fail(401, "Not authenticated");
    fail(
      answer.status >= 400 && answer.status < 500 ? answer.status : 502,
      message || "The audit log could not be exported. Please try again.",
    );
  }
  return new Response(await answer.text(), {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": answer.headers.get("content-disposition") ?? 'attachment; filename="audit.jsonl"',
      "Cache-Control": "no-store",
    },
  });
}
