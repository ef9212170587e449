// The encryption passphrase's strength, judged in the browser only (the passphrase is never sent):
// roughly the bits an attacker would have to guess, from its length and the kinds of characters in it,
// less for repeats and common words.

export const MIN_PASSPHRASE_LENGTH = 12;
const COMMON = /password|passwort|qwerty|123456|letmein|welcome|chatcrypt|admin|iloveyou/i;

export interface Strength {
  /** 0 (weak) to 3 (very strong), for the meter. */
  score: number;
  label: "Weak" | "Fair" | "Strong" | "Very strong";
}

export function passphraseStrength(passphrase: string): Strength {
  let pool = 0;
  if (/[a-z]/.test(passphrase)) pool += 26;
  if (/[A-Z]/.test(passphrase)) pool += 26;
  if (/[0-9]/.test(passphrase)) pool += 10;
  if (/[^A-Za-z0-9]/.test(passphrase)) pool += 33;
  const distinct = new Set(passphrase).size;
  let bits = Math.min(passphrase.length, distinct * 2) * Math.log2(Math.max(pool, 1));
  if (COMMON.test(passphrase)) bits /= 2;
  if (passphrase.length < MIN_PASSPHRASE_LENGTH || bits < 50) return { score: 0, label: "Weak" };
  if (bits < 70) return { score: 1, label: "Fair" };
  if (bits < 90) return { score: 2, label: "Strong" };
  return { score: 3, label: "Very strong" };
}

/** The form's problem with a new passphrase and its confirmation, or null. */
export function newPassphraseProblem(passphrase: string, confirmation: string): string | null {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return `Your encryption passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters.`;
  if (passphraseStrength(passphrase).score === 0) return "This passphrase is too easy to guess: add more words.";
  if (passphrase !== confirmation) return "The two passphrases do not match.";
  return null;
}
