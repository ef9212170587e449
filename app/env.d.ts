/// <reference types="@remix-run/node" />
/// <reference types="vite/client" />

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};
