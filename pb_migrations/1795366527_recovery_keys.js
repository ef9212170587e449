// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Account recovery (docs/decisions/0027-recovery-key-and-password-reset.md):
// - recovery_keys: one per user, the identity private keys wrapped a second time, under a key only the
//   user's recovery key derives (in the browser). Its owner reads it; it is written only by
//   POST /api/chat/recovery-key and by the password reset (pb_hooks/recovery.pb.js).
// - The password reset email links to the web app's /reset-password page, the token in the fragment
//   (browsers never send it, so it is in no access log). {APP_URL} is set from APP_URL at every start.
// - Rate limits of the reset routes (per client address), ahead of the "/api/chat/" rule.
migrate(
  (app) => {
    const resetRules = [
      { label: "POST /api/chat/password-reset/open", audience: "", duration: 60, maxRequests: 10 },
      { label: "POST /api/chat/password-reset/confirm", audience: "", duration: 60, maxRequests: 5 },
      { label: "POST /api/chat/recovery-key", audience: "", duration: 60, maxRequests: 10 },
    ];
    const users = app.findCollectionByNameOrId("users");
    const owner = '@request.auth.id != "" && user = @request.auth.id';
    // "v1." + base64url(iv) + "." + base64url(ciphertext), as app/crypto/keys.ts wraps a private key
    const wrapped = "^v[0-9]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$";
    const recovery = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "recovery_keys",
          listRule: owner,
          viewRule: owner,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "wrapped_ecdh", type: "text", required: true, max: 8000, pattern: wrapped },
            { name: "wrapped_rsa", type: "text", required: true, max: 8000, pattern: wrapped },
            { name: "created", type: "autodate", onCreate: true, onUpdate: true },
          ],
          indexes: ["CREATE UNIQUE INDEX `idx_recovery_keys_user` ON `recovery_keys` (`user`)"],
        })
      ),
    );
    app.save(recovery);

    unmarshal(
      {
        resetPasswordTemplate: {
          subject: "Reset your {APP_NAME} password",
          body: `<p>Hello,</p>
<p>Someone, probably you, asked to reset the password of your {APP_NAME} account.</p>
<p>Open the link below to choose a new password. Have your recovery key ready: it keeps your channels, contacts and direct messages readable.</p>
<p><a class="btn" href="{APP_URL}/reset-password#token={TOKEN}" target="_blank" rel="noopener">Reset my password</a></p>
<p><i>If you did not ask for this, ignore this email: your password stays as it is. The link works for 30 minutes.</i></p>
<p>{APP_NAME}</p>`,
        },
      },
      users,
    );
    app.save(users);

    const settings = app.settings();
    const labels = resetRules.map((rule) => rule.label);
    const kept = settings.rateLimits.rules
      .filter((rule) => labels.indexOf(rule.label) === -1)
      .map((rule) => ({ label: rule.label, audience: rule.audience, duration: rule.duration, maxRequests: rule.maxRequests }));
    unmarshal({ rateLimits: { rules: resetRules.concat(kept) } }, settings);
    app.save(settings);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("recovery_keys"));
    const settings = app.settings();
    const kept = settings.rateLimits.rules
      .filter((rule) => rule.label.indexOf("/api/chat/password-reset/") === -1 && rule.label !== "POST /api/chat/recovery-key")
      .map((rule) => ({ label: rule.label, audience: rule.audience, duration: rule.duration, maxRequests: rule.maxRequests }));
    unmarshal({ rateLimits: { rules: kept } }, settings);
    app.save(settings);
  },
);
