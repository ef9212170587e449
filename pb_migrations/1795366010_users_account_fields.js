// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The built-in "users" auth collection holds the private part of an account: the private keys
// wrapped in the browser (ciphertext), the KDF parameters and the personal settings. Only the owner
// can read or change it. Accounts are created only by the /api/chat/signup hook, together with the
// public profile.
//
// The account password is the login secret derived in the browser, never the user's password.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    users.listRule = "id = @request.auth.id";
    users.viewRule = "id = @request.auth.id";
    users.createRule = null;
    users.updateRule = "id = @request.auth.id";
    users.deleteRule = null;

    // The public directory lives in "profiles"; no plaintext name or avatar on the account.
    users.fields.removeByName("name");
    users.fields.removeByName("avatar");

    // ciphertext and the PBKDF2 iteration count used to derive the key that wraps it
    users.fields.add(new TextField({ name: "encrypted_ecdh_private_key", required: true, max: 8000 }));
    users.fields.add(new TextField({ name: "encrypted_rsa_private_key", required: true, max: 8000 }));
    users.fields.add(new NumberField({ name: "kdf_iterations", required: true, onlyInt: true, min: 100000, max: 10000000 }));
    users.fields.add(new TextField({ name: "translation_language", max: 16 }));
    users.fields.add(new BoolField({ name: "translation_enabled" }));
    users.fields.add(new BoolField({ name: "desktop_notifications_enabled" }));
    users.fields.add(new BoolField({ name: "email_notifications_enabled" }));
    users.fields.add(new BoolField({ name: "email_include_content" }));
    users.fields.add(new BoolField({ name: "notify_on_mention" }));
    users.fields.add(new JSONField({ name: "notify_keywords", maxSize: 8000 }));
    users.fields.add(new JSONField({ name: "world_clock_cities", maxSize: 2000 }));

    // Emails are unique regardless of case, and sign-in finds them regardless of case.
    const emailIndex = findEmailIndexName(users);
    users.removeIndex(emailIndex);
    users.addIndex(emailIndex, true, "`email` COLLATE NOCASE", "`email` != ''");

    unmarshal(
      {
        authRule: "", // email verification is not required to sign in
        passwordAuth: { enabled: true, identityFields: ["email"] },
        oauth2: { enabled: false },
        otp: { enabled: false },
        mfa: { enabled: false },
      },
      users,
    );

    // keep the default minimum password length (8); the client sends a 43-character secret
    users.fields.getByName("password").min = 8;

    app.save(users);

    /** @param {core.Collection} collection */
    function findEmailIndexName(collection) {
      for (const sql of collection.indexes) {
        const match = /^CREATE UNIQUE INDEX `?([^`\s]+)`?\s+ON\s+`?users`?\s*\(\s*`?email`?/i.exec(sql);
        if (match) {
          return match[1];
        }
      }
      return "idx_email_" + collection.id;
    }
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    users.listRule = "id = @request.auth.id";
    users.viewRule = "id = @request.auth.id";
    users.createRule = "";
    users.updateRule = "id = @request.auth.id";
    users.deleteRule = "id = @request.auth.id";

    for (const name of [
      "encrypted_ecdh_private_key",
      "encrypted_rsa_private_key",
      "kdf_iterations",
      "translation_language",
      "translation_enabled",
      "desktop_notifications_enabled",
      "email_notifications_enabled",
      "email_include_content",
      "notify_on_mention",
      "notify_keywords",
      "world_clock_cities",
    ]) {
      users.fields.removeByName(name);
    }

    users.fields.add(new TextField({ name: "name", max: 255 }));
    users.fields.add(
      new FileField({
        name: "avatar",
        maxSelect: 1,
        mimeTypes: ["image/jpeg", "image/png", "image/svg+xml", "image/gif", "image/webp"],
      }),
    );

    let emailIndex = "idx_email_" + users.id;
    for (const sql of users.indexes) {
      const match = /^CREATE UNIQUE INDEX `?([^`\s]+)`?\s+ON\s+`?users`?\s*\(\s*`?email`?/i.exec(sql);
      if (match) {
        emailIndex = match[1];
      }
    }
    users.removeIndex(emailIndex);
    users.addIndex(emailIndex, true, "`email`", "`email` != ''");

    app.save(users);
  },
);
