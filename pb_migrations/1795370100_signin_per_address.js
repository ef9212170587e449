// @ts-check
/// <reference path="../types/hooks.d.ts" />

// An office behind one address signs up and signs in together (docs/decisions/0058-limits-per-account.md,
// addendum "an office's first morning"): wrong passwords are counted per address by the sign-in hook
// (10 a minute, pb_hooks/lib/signin.js), so PocketBase's own rule for every sign-in attempt becomes a
// backstop (60 a minute), and sign-ups from one address go from 5 to 10 a minute.
const LIMITS = { "*:auth": [10, 60], "POST /api/chat/signup": [5, 10] };

/**
 * @param {Parameters<Parameters<typeof migrate>[0]>[0]} app
 * @param {0 | 1} which  0: the numbers before, 1: after
 */
function setLimits(app, which) {
  const settings = app.settings();
  const rules = settings.rateLimits.rules.map((rule) => ({
    label: rule.label,
    audience: rule.audience,
    duration: rule.duration,
    maxRequests: Object.prototype.hasOwnProperty.call(LIMITS, rule.label)
      ? /** @type {Record<string, number[]>} */ (LIMITS)[rule.label][which]
      : rule.maxRequests,
  }));
  unmarshal({ rateLimits: { rules } }, settings);
  app.save(settings);
}

migrate(
  (app) => setLimits(app, 1),
  (app) => setLimits(app, 0),
);
