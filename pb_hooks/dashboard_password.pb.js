// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The PocketBase dashboard's user editor (a superuser's update of a user through the records API)
// cannot set a person's password: the login secret is derived in the browser from the password and
// wraps the person's private keys, so a password set here would leave those keys unopenable
// (docs/decisions/0076-export-and-group-renames.md). The app's own password change, recovery and
// reset-code flows set it in their own routes (pb_hooks/lib/account_keys.js) and are not affected.
// Test: tests/integration/dashboard-password.test.ts.

onRecordUpdateRequest((e) => {
  if (e.hasSuperuserAuth()) {
    const body = e.requestInfo().body || {};
    const asked = ["password", "passwordConfirm"].some((field) => body[field] !== undefined && body[field] !== null && body[field] !== "");
    if (asked) {
      const { badRequest } = require(`${__hooks}/lib/errors.js`);
      throw badRequest(
        'Setting a password here would leave this person\'s encrypted keys unopenable. Use "Issue a reset code" in the ChatCrypt admin console instead.',
      );
    }
  }
  e.next();
}, "users");
