import type PocketBase from "pocketbase";
import type { AdminChannel, AdminPerson, MailStatus, WhoCanCreate } from "~/features/admin/types";
import { callHook, readHook } from "~/server/hooks.server";

export const listPeople = (pb: PocketBase, query: string) =>
  readHook<{ people: AdminPerson[]; more: boolean; owners: number }>(
    pb,
    `/api/chat/admin/people?q=${encodeURIComponent(query)}`,
    "People could not be listed. Please try again.",
  );

export const listAdminChannels = (pb: PocketBase) =>
  readHook<{ channels: AdminChannel[] }>(pb, "/api/chat/admin/channels", "Channels could not be listed. Please try again.");

export const mailStatus = (pb: PocketBase) => readHook<MailStatus>(pb, "/api/chat/admin/mail", "The mail settings could not be read.");

export const changeRole = (pb: PocketBase, userId: string, role: string, from?: string) =>
  callHook<{ role: string; previous: string }>(
    pb,
    "/api/chat/admin/people/role",
    { user_id: userId, role, ...(from ? { from } : {}) },
    "The role could not be changed. Please try again.",
  );

export const signOutEverywhere = (pb: PocketBase, userId: string) =>
  callHook<{ sessions: number }>(
    pb,
    "/api/chat/admin/people/sign-out",
    { user_id: userId },
    "The devices could not be signed out. Please try again.",
  );

export const setWhoCanCreate = (pb: PocketBase, value: WhoCanCreate) =>
  callHook<{ who_can_create_channels: WhoCanCreate }>(
    pb,
    "/api/chat/admin/settings",
    { who_can_create_channels: value },
    "The setting could not be saved. Please try again.",
  );

export const sendTestMail = (pb: PocketBase) =>
  callHook<{ sent: boolean; address: string; error?: string }>(pb, "/api/chat/admin/mail/test", {}, "The test email could not be sent.");
