import { createHmac } from "node:crypto";
import { env } from "./env.server";

let cached: { secret: string; headers: Record<string, string> } | undefined;

/**
 * The proof that a request to PocketBase comes from this web server (docs/decisions/0069-what-reaches-pocketbase-directly.md):
 * an HMAC of a fixed text under the secret both share (PB_PROXY_SECRET), so the secret itself never
 * travels. PocketBase believes X-Forwarded-For, X-ChatCrypt-Device and X-ChatCrypt-Agent only with it.
 * Empty without a secret.
 */
export function proxyProof(): Record<string, string> {
  const secret = env().PB_PROXY_SECRET ?? "";
  if (!secret) return {};
  if (cached?.secret !== secret) {
    cached = { secret, headers: { "X-ChatCrypt-Proxy": createHmac("sha256", secret).update("ChatCrypt web server").digest("hex") } };
  }
  return cached.headers;
}
