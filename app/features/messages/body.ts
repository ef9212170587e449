/**
 * What a message's encrypted payload holds. A plain message is its text as it is; a message that
 * carries more (the fingerprints of its files) is a marked JSON body. Both are signed with the message.
 */
const MARK = "\u0000cc1:";

export interface MessageBody {
  text: string;
  /** SHA-256 (base64url) of each file's plaintext, in the order the files were attached. */
  files: string[];
}

export function encodeBody(body: MessageBody): string {
  if (body.files.length === 0 && !body.text.startsWith(MARK)) return body.text;
  return MARK + JSON.stringify({ t: body.text, f: body.files });
}

export function decodeBody(plaintext: string): MessageBody {
  if (!plaintext.startsWith(MARK)) return { text: plaintext, files: [] };
  try {
    const raw = JSON.parse(plaintext.slice(MARK.length)) as { t?: unknown; f?: unknown };
    const text = typeof raw.t === "string" ? raw.t : "";
    const files = Array.isArray(raw.f) ? raw.f.filter((h): h is string => typeof h === "string" && /^[A-Za-z0-9_-]{43}$/.test(h)) : [];
    return { text, files };
  } catch {
    return { text: "", files: [] };
  }
}
