// The OpenID Connect provider of the tests (tools/oidc-provider/, a real provider on loopback), typed
// for the integration and browser tests; the code is shared with the bench (scripts/lib/oidc-provider.mjs).
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, signInAtProvider, startProvider as start } from "../scripts/lib/oidc-provider.mjs";

export { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, signInAtProvider };

export interface RunningProvider {
  /** The issuer, e.g. http://127.0.0.1:5556/ */
  issuer: string;
  /** PocketBase's environment settings for this provider. */
  env: Record<string, string>;
  addUser(user: { username: string; password: string; email: string; name?: string }): Promise<void>;
  disableUser(username: string): Promise<void>;
  logs(): string;
  stop(): Promise<void>;
}

/** Starts the provider on a free loopback port (or the one given), accepting the given redirect URIs. */
export const startProvider = (redirectUris: string[], port?: number): Promise<RunningProvider> => start(redirectUris, port);
