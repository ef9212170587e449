// @ts-check
/// <reference path="../types/hooks.d.ts" />

// App name and the built-in rate limiter.
//
// Limits are counted per client IP. In production PocketBase sits behind the Remix server, so the
// Remix server must send the browser's address in X-Forwarded-For (overwriting any incoming value);
// PocketBase takes the right-most address of that header. Without the header every request counts
// against the Remix server's own address. PocketBase must not be reachable from the internet
// directly, otherwise the header could be forged.
//
// Rule order matters for the path-prefix rules: the first matching prefix wins, so "/api/chat/"
// must come before "/api/".
migrate(
  (app) => {
    const settings = app.settings();

    unmarshal(
      {
        meta: { appName: "ChatCrypt" },
        trustedProxy: { headers: ["X-Forwarded-For"], useLeftmostIP: false },
        rateLimits: {
          enabled: true,
          rules: [
            // our server functions
            { label: "POST /api/chat/signup", audience: "", duration: 60, maxRequests: 5 },
            // each join attempt is one online guess of a channel password
            { label: "POST /api/chat/channels/join", audience: "", duration: 60, maxRequests: 10 },
            { label: "POST /api/chat/channels", audience: "", duration: 60, maxRequests: 20 },
            { label: "/api/chat/", audience: "", duration: 10, maxRequests: 60 },

            // PocketBase auth endpoints (auth-with-password and the other auth methods)
            { label: "*:auth", audience: "", duration: 60, maxRequests: 10 },
            { label: "*:authRefresh", audience: "", duration: 60, maxRequests: 30 },
            { label: "*:requestPasswordReset", audience: "", duration: 300, maxRequests: 2 },
            { label: "*:requestVerification", audience: "", duration: 300, maxRequests: 2 },
            { label: "*:requestEmailChange", audience: "", duration: 300, maxRequests: 2 },
            { label: "*:requestOTP", audience: "", duration: 300, maxRequests: 2 },

            // PocketBase defaults for everything else
            { label: "*:create", audience: "", duration: 5, maxRequests: 20 },
            { label: "/api/batch", audience: "", duration: 1, maxRequests: 3 },
            { label: "/api/", audience: "", duration: 10, maxRequests: 300 },
          ],
        },
      },
      settings,
    );

    app.save(settings);
  },
  (app) => {
    const settings = app.settings();

    unmarshal(
      {
        meta: { appName: "Acme" },
        trustedProxy: { headers: [], useLeftmostIP: false },
        rateLimits: {
          enabled: false,
          rules: [
            { label: "*:auth", audience: "", duration: 3, maxRequests: 2 },
            { label: "*:create", audience: "", duration: 5, maxRequests: 20 },
            { label: "/api/batch", audience: "", duration: 1, maxRequests: 3 },
            { label: "/api/", audience: "", duration: 10, maxRequests: 300 },
          ],
        },
      },
      settings,
    );

    app.save(settings);
  },
);
