import { api } from "~/lib/api.client";
import type { ActivityEntry, AuditPage, AuditQuery } from "~/features/audit/types";
import { dayStart } from "~/features/audit/days";

/** One page of the audit log with the chain's verdict (owner and admins). */
export async function loadAuditPage(query: AuditQuery): Promise<AuditPage> {
  const params = new URLSearchParams();
  if (query.page && query.page > 1) params.set("page", String(query.page));
  if (query.upto) params.set("upto", String(query.upto));
  if (query.person) params.set("person", query.person);
  if (query.action) params.set("action", query.action);
  if (query.from) params.set("since", dayStart(query.from));
  if (query.to) params.set("until", dayStart(query.to, 1));
  const search = params.toString();
  return api<AuditPage>(`/api/admin/audit${search ? `?${search}` : ""}`);
}

/** The caller's own latest entries. */
export async function loadActivity(): Promise<ActivityEntry[]> {
  return (await api<{ items: ActivityEntry[] }>("/api/account/activity")).items;
}
