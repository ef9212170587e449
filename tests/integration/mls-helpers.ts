/** MLS data as the delivery service carries it: base64url. */
export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
export const bytes = (text: string) => new Uint8Array(Buffer.from(text, "base64url"));
