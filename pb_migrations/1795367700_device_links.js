// @ts-check
/// <reference path="../types/hooks.d.ts" />

// New devices approved from a signed-in one (docs/decisions/0059-device-approval.md):
// - device_links: a new device's request to receive the account's keys from a signed-in device. Its
//   ephemeral public key, the approving device's, the keys sealed between the two (opaque), the hash of
//   the secret only the new device holds, and its state. No API rules: only pb_hooks/device_link.pb.js
//   reads and writes it. A request for an unknown account has no user (it answers like any other).
// - Rate limits per client address for starting a request and for polling it, ahead of "/api/chat/".
const LINK_RULES = [
  { label: "POST /api/chat/device-links", audience: "", duration: 60, maxRequests: 5 },
  { label: "POST /api/chat/device-links/poll", audience: "", duration: 60, maxRequests: 90 },
];

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    // base64 SPKI of an ECDH P-256 public key (91 bytes: 124 characters)
    const publicKey = "^[A-Za-z0-9+/]{120,200}={0,2}$";
    app.save(
      new Collection(
        /** @type {any} */ ({
          type: "base",
          name: "device_links",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "user", type: "relation", required: false, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            // "signin": the approval starts a session; "keys": the device is signed in already, only the keys travel
            { name: "purpose", type: "select", required: true, maxSelect: 1, values: ["signin", "keys"] },
            { name: "state", type: "select", required: true, maxSelect: 1, values: ["pending", "approved", "denied"] },
            { name: "secret_hash", type: "text", required: true, hidden: true, min: 64, max: 64, pattern: "^[0-9a-f]{64}$" },
            { name: "device_key", type: "text", required: true, max: 200, pattern: publicKey },
            { name: "approver_key", type: "text", required: false, max: 200, pattern: publicKey },
            { name: "sealed", type: "text", required: false, max: 20000, pattern: "^[A-Za-z0-9_-]*$" },
            { name: "agent", type: "text", required: true, max: 48 },
            { name: "expires", type: "date", required: true },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
          indexes: [
            "CREATE INDEX `idx_device_links_user` ON `device_links` (`user`, `state`)",
            "CREATE INDEX `idx_device_links_expires` ON `device_links` (`expires`)",
          ],
        }),
      ),
    );

    const settings = app.settings();
    const labels = LINK_RULES.map((rule) => rule.label);
    const kept = settings.rateLimits.rules
      .filter((rule) => labels.indexOf(rule.label) === -1)
      .map((rule) => ({ label: rule.label, audience: rule.audience, duration: rule.duration, maxRequests: rule.maxRequests }));
    unmarshal({ rateLimits: { rules: LINK_RULES.concat(kept) } }, settings);
    app.save(settings);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("device_links"));
    const settings = app.settings();
    const labels = LINK_RULES.map((rule) => rule.label);
    const kept = settings.rateLimits.rules
      .filter((rule) => labels.indexOf(rule.label) === -1)
      .map((rule) => ({ label: rule.label, audience: rule.audience, duration: rule.duration, maxRequests: rule.maxRequests }));
    unmarshal({ rateLimits: { rules: kept } }, settings);
    app.save(settings);
  },
);
