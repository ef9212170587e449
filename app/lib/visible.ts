/**
 * Text without anything to see: spaces, and characters that draw nothing (zero-width spaces and joiners,
 * direction marks, soft hyphens, byte-order marks: Unicode's default-ignorable code points) or control
 * characters. A name made only of them would show as a blank heading and a blank list entry.
 */
const SOMETHING_TO_SEE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}]/u;

export const isBlank = (text: string) => !SOMETHING_TO_SEE.test(text);
