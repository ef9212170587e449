// @ts-check
/// <reference path="../types/hooks.d.ts" />

// Email verification for the "users" collection, through PocketBase's own flow
// (request-verification, confirm-verification). Email notifications need a verified address.
//
// The link in the verification email opens the web app's /verify-email page, which confirms the
// token with PocketBase. {APP_URL} is PocketBase's application URL, set from APP_URL at every start
// (pb_hooks/email_notification.pb.js). The token travels in the fragment, which browsers do not send
// to servers, so it appears in no access log.
//
// Once numbered 1795366080 like the revoked tokens' migration; renumbered so no two share a time. It
// only sets the template, so a data directory that ran it under the old number runs it again unchanged.
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    unmarshal(
      {
        verificationTemplate: {
          subject: "Verify your email address for {APP_NAME}",
          body: `<p>Hello,</p>
<p>Someone, probably you, asked {APP_NAME} to send notifications to this address.</p>
<p>Open the link below to confirm that the address is yours:</p>
<p><a class="btn" href="{APP_URL}/verify-email#token={TOKEN}" target="_blank" rel="noopener">Verify my email address</a></p>
<p><i>If you did not ask for this, ignore this email: without your confirmation no notifications are sent to this address.</i></p>
<p>{APP_NAME}</p>`,
        },
      },
      users,
    );

    app.save(users);
  },
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    unmarshal(
      {
        verificationTemplate: {
          subject: "Verify your {APP_NAME} email",
          body: `<p>Hello,</p>
<p>Thank you for joining us at {APP_NAME}.</p>
<p>Click on the button below to verify your email address.</p>
<p>
  <a class="btn" href="{APP_URL}/_/#/auth/confirm-verification/{TOKEN}" target="_blank" rel="noopener">Verify</a>
</p>
<p><i>If you didn't recently register, please ignore this email.</i></p>
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
