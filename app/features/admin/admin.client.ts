/** The console's calls to our web server (app/routes/api.admin.*): the hooks decide who may. */
import { api } from "~/lib/api.client";
import type { AdminChannel, AdminPerson, MailStatus, WhoCanCreate } from "~/features/admin/types";

const person = (id: string, what: string) => `/api/admin/people/${encodeURIComponent(id)}/${what}`;

export const searchPeople = (query: string, signal?: AbortSignal) =>
  api<{ people: AdminPerson[]; more: boolean; owners: number }>(`/api/admin/people?q=${encodeURIComponent(query)}`, undefined, { signal });

/** A person's new role; `from`, the one the console showed (refused when it changed meanwhile). */
export const changeRole = (id: string, role: string, from: string) => api<{ role: string }>(person(id, "role"), { role, from });

/** Built by the deactivation work (ADR 0056): answers with the route's own error text until it exists. */
/** `already`: the account was deactivated before (another administrator did it meanwhile). */
export const deactivate = (id: string) => api<{ already?: boolean }>(person(id, "deactivate"), {});

export const reactivate = (id: string) => api<{ already?: boolean }>(person(id, "reactivate"), {});

export const signOutAll = (id: string) => api<{ sessions: number }>(person(id, "sign-out"), {});

export const listChannels = () => api<{ channels: AdminChannel[] }>("/api/admin/channels");

export const readMailStatus = () => api<MailStatus>("/api/admin/mail");

export const sendTestEmail = () => api<{ message: string }>("/api/admin/mail/test", {});

export const saveWhoCanCreate = (whoCanCreateChannels: WhoCanCreate) =>
  api<{ whoCanCreateChannels: WhoCanCreate }>("/api/admin/settings", { whoCanCreateChannels });
