// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/signup (public)
//
// Creates an account: the "users" record (login secret, wrapped private keys, default settings)
// and its public "profiles" record with the same id, in one transaction. Answers like a password
// sign-in: {"token", "record"}.
//
// Body: {id, email, password, username, ecdh_public_key, rsa_public_key,
//        encrypted_ecdh_private_key, encrypted_rsa_private_key, kdf_iterations}
// The browser chooses the id because the key that wraps the private keys is derived with it.
// "password" is the login secret derived in the browser, not the user's password.
routerAdd(
  "POST",
  "/api/chat/signup",
  (e) => {
    const { badRequest, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { patterns, readJsonObject, matching, nonEmptyString, wholeNumber } = require(`${__hooks}/lib/request.js`);
    const { setLoginAndKeys } = require(`${__hooks}/lib/account_keys.js`);
    const { roleForNewAccount } = require(`${__hooks}/lib/roles.js`);

    const EMAIL_TAKEN = "An account with this email already exists.";
    const USERNAME_TAKEN = "This username is already taken.";
    const USERNAME_INVALID = "Username must be 3-32 characters: letters, digits, dot, dash or underscore.";
    const EMAIL_INVALID = "Please enter a valid email address.";

    const body = readJsonObject(e);

    const id = matching(body, "id", patterns.userId, "User ID must be 15 lowercase letters or digits.");

    if (typeof body.email !== "string") {
      throw badRequest(EMAIL_INVALID);
    }
    const email = body.email.trim().toLowerCase();
    if (email.length > 254 || !patterns.email.test(email)) {
      throw badRequest(EMAIL_INVALID);
    }

    const password = body.password;
    if (typeof password !== "string" || password.length < 8 || password.length > 71) {
      throw badRequest("Password must be 8 to 71 characters.");
    }

    if (typeof body.username !== "string") {
      throw badRequest(USERNAME_INVALID);
    }
    const username = body.username.trim();
    if (!patterns.username.test(username)) {
      throw badRequest(USERNAME_INVALID);
    }

    const ecdhPublicKey = nonEmptyString(body, "ecdh_public_key");
    const rsaPublicKey = nonEmptyString(body, "rsa_public_key");
    const wrappedEcdhKey = nonEmptyString(body, "encrypted_ecdh_private_key");
    const wrappedRsaKey = nonEmptyString(body, "encrypted_rsa_private_key");
    const kdfIterations = wholeNumber(body, "kdf_iterations");

    let user = null;

    // Writes are serialized by PocketBase, so the checks below cannot race with another sign-up;
    // the unique indexes on email and username stay the last line of defence.
    e.app.runInTransaction((txApp) => {
      const sameEmail = txApp.countRecords("users", $dbx.exp("email = {:email} COLLATE NOCASE", { email: email }));
      if (sameEmail > 0) {
        throw badRequest(EMAIL_TAKEN);
      }

      const sameName = txApp.countRecords("profiles", $dbx.exp("username = {:username} COLLATE NOCASE", { username: username }));
      if (sameName > 0) {
        throw badRequest(USERNAME_TAKEN);
      }

      // a deleted account's id stays taken: its messages stay under it (pb_hooks/lib/account_data.js)
      const sameId = ["users", "profiles", "deleted_accounts"].reduce(
        (n, name) => n + txApp.countRecords(name, $dbx.hashExp({ id: id })),
        0,
      );
      if (sameId > 0) {
        throw badRequest("An account with this ID already exists.");
      }

      user = new Record(txApp.findCollectionByNameOrId("users"));
      user.set("id", id);
      user.setEmail(email);
      setLoginAndKeys(user, password, { ecdh: wrappedEcdhKey, rsa: wrappedRsaKey, iterations: kdfIterations });
      user.setVerified(false);
      // Other settings are encrypted in the browser (encrypted_settings); empty means the defaults.
      user.set("email_notifications_enabled", false);
      user.set("email_include_content", false);

      try {
        txApp.save(user);
      } catch (err) {
        throw invalidRecord(err, "Sign up failed: invalid account data.", {
          email: (detail) => (/unique/i.test(detail) ? EMAIL_TAKEN : EMAIL_INVALID),
          id: "An account with this ID already exists.",
        });
      }

      const role = roleForNewAccount(txApp);
      const profile = new Record(txApp.findCollectionByNameOrId("profiles"));
      profile.set("id", id);
      profile.set("role", role);
      profile.set("username", username);
      profile.set("ecdh_public_key", ecdhPublicKey);
      profile.set("rsa_public_key", rsaPublicKey);

      try {
        txApp.save(profile);
      } catch (err) {
        throw invalidRecord(err, "Sign up failed: invalid profile data.", {
          username: (detail) => (/unique/i.test(detail) ? USERNAME_TAKEN : USERNAME_INVALID),
          id: "An account with this ID already exists.",
        });
      }
    });

    // the audit log records it as the account's creation, not a sign-in (audit_events.pb.js)
    e.set("chatcrypt.signup", true);
    return $apis.recordAuthResponse(e, user, "password", null);
  },
  $apis.bodyLimit(64 * 1024),
); // two wrapped private keys of at most 8000 characters each, and a little more
