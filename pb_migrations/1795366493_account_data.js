// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Changing the email address and deleting the account (docs/decisions/0029-change-email-delete-export.md).
//
// deleted_accounts: what stays of a deleted account, so that the messages it sent (which stay) can still
// be verified and shown as from "Deleted user": its id and its two public keys, nothing else (no
// username, no email). Any signed-in user may read it, like the public profiles; only the delete route
// (pb_hooks/account_data.pb.js) writes it, and the sign-up route refuses its ids, so nobody takes over the
// authorship of a deleted account's messages.
//
// The email-change email links to the web app's /change-email page, where the owner types their
// password: the page derives the login secret and the wrap key for the new address (the email is the
// PBKDF2 salt, app/crypto/account.ts) and confirms everything in one step. The token travels in the
// fragment, which browsers do not send to servers.
migrate(
  (app) => {
    const deleted = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "deleted_accounts",
          listRule: '@request.auth.id != ""',
          viewRule: '@request.auth.id != ""',
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            // the default id field (15 lowercase letters or digits) holds the deleted account's id
            { name: "ecdh_public_key", type: "text", required: true, max: 1000 },
            { name: "rsa_public_key", type: "text", required: true, max: 1000 },
            { name: "created", type: "autodate", onCreate: true, onUpdate: false },
          ],
        })
      ),
    );
    app.save(deleted);

    const users = app.findCollectionByNameOrId("users");
    unmarshal(
      {
        confirmEmailChangeTemplate: {
          subject: "Confirm your new email address for {APP_NAME}",
          body: `<p>Hello,</p>
<p>Someone, probably you, asked {APP_NAME} to use this address for their account.</p>
<p>Open the link below and enter your password to confirm the change:</p>
<p><a class="btn" href="{APP_URL}/change-email#token={TOKEN}" target="_blank" rel="noopener">Confirm my new email address</a></p>
<p><i>If you did not ask for this, ignore this email: the account keeps its current address.</i></p>
<p>{APP_NAME}</p>`,
        },
      },
      users,
    );
    app.save(users);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("deleted_accounts"));
    const users = app.findCollectionByNameOrId("users");
    unmarshal(
      {
        confirmEmailChangeTemplate: {
          subject: "Confirm your {APP_NAME} new email address",
          body: `<p>Hello,</p>
<p>Click on the button below to confirm your new email address.</p>
<p>
  <a class="btn" href="{APP_URL}/_/#/auth/confirm-email-change/{TOKEN}" target="_blank" rel="noopener">Confirm new email</a>
</p>
<p><i>If you didn't ask to change your email address, you can ignore this email.</i></p>
<p>
  Thanks,<br/>
  {APP_NAME} team
</p>`,
        },
      },
      users,
    );
    app.save(users);
  },
);
