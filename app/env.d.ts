/// <reference types="@remix-run/node" />
/// <reference types="vite/client" />

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    /** The browser's address as seen by server.mjs (honours TRUST_PROXY). */
    clientIp?: string;
  }
}

export {};
