/** A person's card as their browser writes it and readers' browsers open it (ADR 0075). */
export interface ProfileCard {
  /** Display name, 1 to 64 characters (none: only the username shows). */
  name?: string;
  /** A small photo as a data: URL (JPEG or WebP, 256x256 at most). */
  photo?: string;
}

/** A card as the server hands it out: ciphertext, and the profile key sealed to the caller (when it was). */
export interface SealedCard {
  ownerId: string;
  card: string;
  sealedKey: string | null;
}

/** The caller's own card, the readers it is sealed to, and the people they share a conversation with. */
export interface OwnCardState {
  card: SealedCard | null;
  readers: string[];
  people: string[];
}

export interface SealedKey {
  reader: string;
  sealedKey: string;
}

export const MAX_DISPLAY_NAME = 64;
/** The encrypted card's size limit (characters of base64url); a 256x256 photo needs far less. */
export const MAX_CARD_CHARS = 200_000;
export const MAX_SEALED_KEY_CHARS = 400;
export const MAX_KEYS_PER_REQUEST = 200;
export const CARD_TOO_LARGE = "Your profile is too large to save (at most 200 KB encrypted). Choose a smaller photo.";
export const NOT_SHARED = "Your profile can be shared only with people you share a conversation with.";
