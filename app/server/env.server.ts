import { z } from "zod";

// Server environment, validated once at boot. Only `publicEnv` ever reaches the browser.
const isHttpAddress = (value: string) => /^https?:$/.test(new URL(value).protocol);
const isWsAddress = (value: string) => /^wss?:$/.test(new URL(value).protocol);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PB_URL: z.string().url().default("http://127.0.0.1:8090"),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  // Shared with PocketBase: only requests that prove it may name the browser's address and device
  // (app/server/proxy.server.ts). Unset, PocketBase counts every browser under the web server's address.
  PB_PROXY_SECRET: z.string().min(1).optional(),
  // Set to "true" when the web app is served over HTTPS (directly or behind a proxy).
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  // Largest file a member may send, in MB (the PocketBase file field allows up to 60 MiB).
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(59).default(50),
  // How often the open News Feed sidebar refreshes (spec: 4 minutes).
  NEWS_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(240),
  // The address browsers use for the web app (e.g. https://chat.example.com): passkeys are bound to its
  // origin and host (unset: the origin of each request, as TRUST_PROXY lets server.mjs read it).
  APP_URL: z.string().url().refine(isHttpAddress, "APP_URL must be an http(s) address").optional(),
  // Calls (docs/decisions/0030-calls-livekit.md): the LiveKit server's address as browsers reach it
  // (ws:// or wss://), the address the web server reaches its API on (default: the same, as http(s)),
  // and its API key and secret (never sent to a browser). Calls are off while any is missing.
  LIVEKIT_URL: z.string().url().refine(isWsAddress, "LIVEKIT_URL must be a ws(s) address").optional(),
  LIVEKIT_API_URL: z.string().url().refine(isHttpAddress, "LIVEKIT_API_URL must be an http(s) address").optional(),
  LIVEKIT_API_KEY: z.string().min(3).optional(),
  LIVEKIT_API_SECRET: z.string().min(32, "LIVEKIT_API_SECRET must be at least 32 characters").optional(),
  // The most people in one call; one more is told "This call is full."
  CALL_MAX_PARTICIPANTS: z.coerce.number().int().min(2).max(100).default(8),
});

export type ServerEnv = z.infer<typeof schema>;

let cached: (ServerEnv & { sessionSecret: string }) | undefined;

export function env() {
  if (cached) return cached;
  // An empty variable means "not set" (env files and unit files often carry `NAME=`).
  const given = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  let sessionSecret = parsed.data.SESSION_SECRET;
  if (!sessionSecret) {
    if (parsed.data.NODE_ENV === "production") {
      throw new Error("Invalid environment: SESSION_SECRET is required in production");
    }
    sessionSecret = "development-only-session-secret-change-me";
  }
  cached = { ...parsed.data, sessionSecret };
  return cached;
}

/** The only settings the browser receives. */
export const publicEnv = () => ({
  uploadMaxBytes: env().UPLOAD_MAX_MB * 1024 * 1024,
  newsRefreshMs: env().NEWS_REFRESH_SECONDS * 1000,
});
export type PublicEnv = ReturnType<typeof publicEnv>;

/** The origin passkeys are bound to (APP_URL's), or "" when each request's own origin is used. */
export const passkeyOrigin = () => {
  const url = env().APP_URL;
  return url ? new URL(url).origin : "";
};
