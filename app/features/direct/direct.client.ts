import { randomUuid } from "~/crypto";
import { api } from "~/lib/api.client";
import type { Person } from "~/features/direct/types";

/**
 * Starts a direct conversation (or finds the one-to-one the two already have); a group's name stays on
 * the page (names.ts). `id`: the one a start whose answer was lost asked for (the server answers the
 * group it made then, not a second one).
 */
export const startDirect = (participants: string[], id = randomUuid()) =>
  api<{ id: string; existing: boolean }>("/api/direct", { id, participants });

export const addPeople = (channelId: string, participants: string[]) => api(`/api/direct/${channelId}/add`, { participants });

/** The people the user shares a channel with (the picker's suggestions). */
export const sharedPeople = async () => (await api<{ people: Person[] }>("/api/people")).people;

/** The user with exactly this username, or null. */
export const lookupPerson = async (username: string) => (await api<{ user: Person | null }>("/api/people", { username })).user;
