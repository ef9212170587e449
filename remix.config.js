/**
 * Remix options; vite.config.ts passes them to the Remix Vite plugin.
 * @type {import("@remix-run/dev").VitePluginConfig}
 */
export default {
  appDirectory: "app",
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // The whole route manifest comes with the page (3.5 KB gzip): lazy discovery's observer walked every
    // inserted subtree for links (docs/decisions/0086-the-route-manifest-with-the-page.md).
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
    v3_routeConfig: true,
  },
};
