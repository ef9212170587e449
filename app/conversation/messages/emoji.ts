/**
 * What a reaction may carry: one emoji (one grapheme: a pictograph, a flag, a keycap, with its skin
 * tone or joined sequence), as any emoji picker gives it. Pure: used where a reaction is written and
 * where one is read back (a body that carries anything else is no reaction).
 */
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
// (Emoji_Component: skin tones, the joiner, variation selector 16, the keycap, tags, digits, # and *)
const EMOJI_PARTS = /^[\p{Extended_Pictographic}\p{Emoji_Component}]+$/u;
const MAX_LENGTH = 32;

export function isReactionEmoji(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return false;
  if (!PICTOGRAPH.test(value) || !EMOJI_PARTS.test(value)) return false;
  return [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(value)].length === 1;
}

/** Who reacted, for a reaction's name and tooltip: "You, alice, bob reacted with 👍" (at most 10 names). */
export function whoReacted(names: readonly string[], emoji: string): string {
  const shown = names.slice(0, 10);
  const more = names.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""} reacted with ${emoji}`;
}
