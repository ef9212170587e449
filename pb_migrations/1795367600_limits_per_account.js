// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Rate limits per account for signed-in requests (docs/decisions/0058-limits-per-account.md): the
// rules below, counted per address until now, apply to guests only ("@guest"); a signed-in request is
// counted against its account by pocketbase/account_limits.go with the same numbers. Sign-up, sign-in,
// password reset and the email requests keep their per-address limits for everyone.
const PER_ACCOUNT_WHEN_SIGNED_IN = [
  "POST /api/chat/channels/join",
  "POST /api/chat/channels",
  "POST /api/chat/recovery-key",
  "/api/chat/",
  "*:create",
  "*:authRefresh",
  "/api/batch",
  "/api/",
];

/**
 * @param {Parameters<Parameters<typeof migrate>[0]>[0]} app
 * @param {string} audience
 */
function setAudience(app, audience) {
  const settings = app.settings();
  const rules = settings.rateLimits.rules.map((rule) => ({
    label: rule.label,
    audience: PER_ACCOUNT_WHEN_SIGNED_IN.indexOf(rule.label) >= 0 ? audience : rule.audience,
    duration: rule.duration,
    maxRequests: rule.maxRequests,
  }));
  unmarshal({ rateLimits: { rules } }, settings);
  app.save(settings);
}

migrate(
  (app) => setAudience(app, "@guest"),
  (app) => setAudience(app, ""),
);
