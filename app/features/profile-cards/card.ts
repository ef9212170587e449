import { MAX_DISPLAY_NAME, type ProfileCard } from "~/features/profile-cards/types";

const PHOTO = /^data:image\/(jpeg|webp|png);base64,[A-Za-z0-9+/]+={0,2}$/;

/** A card as opened: only a sane name and an image data: URL are kept (anything else is dropped). */
export function parseCard(value: unknown): ProfileCard | null {
  if (!value || typeof value !== "object") return null;
  const { name, photo } = value as Record<string, unknown>;
  const card: ProfileCard = {};
  if (typeof name === "string" && name.trim() && name.length <= MAX_DISPLAY_NAME) card.name = name.trim();
  if (typeof photo === "string" && PHOTO.test(photo)) card.photo = photo;
  return card.name || card.photo ? card : null;
}

/** The display name as typed: trimmed, inner runs of spaces kept as one. Errors say what is wrong. */
export function checkDisplayName(raw: string): { name: string } | { error: string } {
  const name = raw.replace(/\s+/g, " ").trim();
  if (name.length > MAX_DISPLAY_NAME) return { error: `Display name is too long: at most ${MAX_DISPLAY_NAME} characters.` };
  return { name };
}
