// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Passkeys (pocketbase/passkeys.go, docs/decisions/0028-passkeys.md): one record per WebAuthn
// credential of a user. Only pocketbase/passkeys.go creates them (after the web app verified the
// attestation, with a challenge this PocketBase issued) and updates them (counter and last use at each
// sign-in); the owner lists and deletes their own. public_key is the credential's SubjectPublicKeyInfo
// (base64url), algorithm its COSE number. With a passkey that has the PRF extension, the identity private
// keys are wrapped a third time under a key only the authenticator's PRF output derives (the server never
// sees that output): wrapped_*_private_key, empty for a passkey without PRF.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const owner = '@request.auth.id != "" && user = @request.auth.id';
    const wrapped = /** @type {const} */ ({ type: "text", max: 8000, pattern: "^(v1\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)?$" });
    const passkeys = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "passkeys",
          listRule: owner,
          viewRule: owner,
          createRule: null,
          updateRule: null,
          deleteRule: owner,
          fields: [
            { name: "user", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
            { name: "credential_id", type: "text", required: true, min: 22, max: 1364, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "public_key", type: "text", required: true, max: 1600, pattern: "^[A-Za-z0-9_-]+$" },
            { name: "algorithm", type: "number", required: true, onlyInt: true, min: -65535, max: 65535 },
            { name: "counter", type: "number", onlyInt: true, min: 0, max: 4294967295 },
            { name: "transports", type: "json", maxSize: 200 },
            { name: "name", type: "text", required: true, max: 64 },
            { name: "rp_id", type: "text", required: true, max: 253 },
            { name: "wrapped_ecdh_private_key", ...wrapped },
            { name: "wrapped_rsa_private_key", ...wrapped },
            { name: "created", type: "autodate", onCreate: true },
            { name: "last_used", type: "date" },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_passkeys_credential_id` ON `passkeys` (`credential_id`)",
            "CREATE INDEX `idx_passkeys_user` ON `passkeys` (`user`)",
          ],
        })
      ),
    );
    app.save(passkeys);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("passkeys"));
  },
);
