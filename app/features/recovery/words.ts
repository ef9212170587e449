/**
 * A recovery key as people see it: 24 words of the BIP-39 English list (@scure/bip39), 256 bits of
 * entropy and an 8-bit checksum that catches a mistyped word. Pure: no storage, no network.
 */
import { entropyToMnemonic, mnemonicToEntropy } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { RECOVERY_KEY_BYTES, newRecoveryEntropy } from "~/crypto";

export const RECOVERY_WORDS = 24;

export const WRONG_WORD_COUNT = `A recovery key is ${RECOVERY_WORDS} words. Check that you entered all of them.`;
export const NOT_A_RECOVERY_KEY = "This is not a valid recovery key. Check each word against the one you saved.";

/** A new recovery key: its entropy (what wraps the keys) and its words (what the user saves). */
export function newRecoveryKey(): { entropy: Uint8Array; words: string[] } {
  const entropy = newRecoveryEntropy();
  return { entropy, words: entropyToMnemonic(entropy, wordlist).split(" ") };
}

/** The words of what the user typed or pasted: lower case, numbering, punctuation and line breaks left out. */
export function recoveryWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
}

/** The entropy of a recovery key typed by the user, or the message saying what is wrong with it. */
export function readRecoveryKey(text: string): { entropy: Uint8Array } | { problem: string } {
  const words = recoveryWords(text);
  if (words.length !== RECOVERY_WORDS) return { problem: WRONG_WORD_COUNT };
  try {
    const entropy = mnemonicToEntropy(words.join(" "), wordlist);
    return entropy.length === RECOVERY_KEY_BYTES ? { entropy } : { problem: NOT_A_RECOVERY_KEY };
  } catch {
    return { problem: NOT_A_RECOVERY_KEY };
  }
}

/** The downloaded file's name, one per account: `chatcrypt-recovery-key-<username>.txt`. */
export function recoveryKeyFileName(username: string): string {
  const name = username.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "");
  return name ? `chatcrypt-recovery-key-${name}.txt` : "chatcrypt-recovery-key.txt";
}

/** The text of the downloaded file: the words, numbered, with what they are for. */
export function recoveryKeyFile(words: readonly string[], email: string, date: Date): string {
  const lines = words.map((word, i) => `${String(i + 1).padStart(2, " ")}. ${word}`);
  return [
    "ChatCrypt recovery key",
    `Account: ${email}`,
    `Created: ${date.toISOString().slice(0, 10)}`,
    "",
    "With these 24 words you can reset a forgotten password without losing your messages and channels.",
    "Keep them somewhere safe and private: anyone who has them and can read your email can take over your account.",
    "",
    ...lines,
    "",
  ].join("\n");
}
